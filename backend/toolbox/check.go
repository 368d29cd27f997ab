package toolbox

import (
	"regexp"
	"strings"
	"sync"

	"hermes/backend/i18n"
)

// Kinds of Finding.
const (
	FindingNoWhen        = "no_when"        // the description never says when to use the tool
	FindingNoDescription = "no_description" // a parameter has no description
	FindingNoFormat      = "no_format"      // a date or time parameter gives no format
	FindingEnumNotListed = "enum_unlisted"  // a parameter names its choices in prose, not as an enum
	FindingOverlap       = "overlap"        // two tools are described alike
)

// Finding is one way a tool's description may mislead a model.
type Finding struct {
	Tool  string
	Param string // the parameter's path, "" for the tool itself
	Kind  string
	Other string // the other tool of an overlap
}

// Message says what is wrong and what to write, in the current language.
func (f Finding) Message() string {
	key := "skills.check." + f.Kind
	switch f.Kind {
	case FindingNoWhen:
		return i18n.T(key, f.Tool)
	case FindingOverlap:
		return i18n.T(key, f.Tool, f.Other)
	}
	return i18n.T(key, f.Tool, f.Param)
}

// overlapAt is the share of shared words above which two descriptions are
// alike enough for a model to pick the wrong tool.
const overlapAt = 0.6

// cueSet is what CheckTools looks for in descriptions.
type cueSet struct {
	when, timeName, format, choice *regexp.Regexp
	// example marks values given as examples, which are not choices.
	example *regexp.Regexp
}

// cues are compiled on first use: only a check reads them, and every
// process would pay 50 KB for them at start.
var cues = sync.OnceValue(func() cueSet {
	return cueSet{
		when:     regexp.MustCompile(`(?i)\b(use (it|this|when|to|for)|when (you|the)|call (it|this)|for (finding|reading|writing|listing|searching|running)|instead of|before|after)\b|用于|当|使用|适用`),
		timeName: regexp.MustCompile(`(?i)(date|time|day|since|until|before|after|deadline|when)`),
		format:   regexp.MustCompile(`(?i)(yyyy|rfc ?3339|iso ?8601|hh:mm|unix|epoch|seconds|格式)`),
		choice:   regexp.MustCompile(`(?i)\b(one of|either)\b|"[^"]+" or "[^"]+"|'[^']+' or '[^']+'|之一`),
		example:  regexp.MustCompile(`(?i)such as|e\.g\.|for example|例如`),
	}
})

// CheckTools reviews the tools as a model will read them.
func CheckTools(tools []Tool) []Finding {
	var out []Finding
	for _, t := range tools {
		if !cues().when.MatchString(t.Description) {
			out = append(out, Finding{Tool: t.Name, Kind: FindingNoWhen})
		}
		s, err := parseSchema(t.Parameters)
		if err == nil {
			out = append(out, checkParams(t.Name, "", s)...)
		}
	}
	words := make([]map[string]bool, len(tools))
	for i, t := range tools {
		words[i] = terms(t.Description)
	}
	for i := range tools {
		for j := i + 1; j < len(tools); j++ {
			if similarity(words[i], words[j]) >= overlapAt {
				out = append(out, Finding{Tool: tools[i].Name, Kind: FindingOverlap, Other: tools[j].Name})
			}
		}
	}
	return out
}

func checkParams(tool, at string, s *schema) []Finding {
	var out []Finding
	for _, name := range s.Order {
		p := s.Properties[name]
		path := name
		if at != "" {
			path = at + "." + name
		}
		desc := strings.TrimSpace(p.Description)
		switch {
		case desc == "":
			out = append(out, Finding{Tool: tool, Param: path, Kind: FindingNoDescription})
		case p.Enum == nil && cues().choice.MatchString(desc) && !cues().example.MatchString(desc):
			out = append(out, Finding{Tool: tool, Param: path, Kind: FindingEnumNotListed})
		}
		if isString(p) && p.Format == "" && p.Enum == nil && cues().timeName.MatchString(name) && !cues().format.MatchString(desc) {
			out = append(out, Finding{Tool: tool, Param: path, Kind: FindingNoFormat})
		}
		if p.Properties != nil {
			out = append(out, checkParams(tool, path, p)...)
		}
		if p.Items != nil && p.Items.Properties != nil {
			out = append(out, checkParams(tool, path+"[]", p.Items)...)
		}
	}
	return out
}

func isString(s *schema) bool {
	for _, t := range s.Types {
		if t == "string" {
			return true
		}
	}
	return false
}

// similarity is the Jaccard index of two word sets.
func similarity(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	shared := 0
	for w := range a {
		if b[w] {
			shared++
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}
