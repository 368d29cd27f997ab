package skills

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"hermes/backend/contextmgr"
	"hermes/backend/llm"
)

// LoadSkillTool is the name of the tool that gives the model a skill's
// instructions and, when they were left out, its tools.
const LoadSkillTool = "load_skill"

// Selection is the tools one run is offered. With no more tools than
// Options.SelectAbove it is all of them; with more, only the skills that
// rank highest for the task, and load_skill adds others on request.
type Selection struct {
	c     *Catalog
	runID string
	reg   *Registry
	// skillOf maps a tool to its skill; load_skill belongs to none and is
	// always offered.
	skillOf map[string]string

	mu     sync.Mutex
	active map[string]bool // nil means every skill
}

// Select chooses the tools offered to run runID for task. The loop should
// send Selection.Defs() instead of Registry.Defs() and report
// SavedTokens() in its context budget; Close forgets the run.
func (c *Catalog) Select(runID, task string) *Selection {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &Selection{c: c, runID: runID, reg: c.reg, skillOf: c.toolSkill}
	if len(c.reg.Names()) > c.opts.SelectAbove {
		s.active = rankSkills(task, c.skills, c.reg, c.opts.SelectAbove-1)
	}
	c.selections[runID] = s
	return s
}

// Close forgets the selection, once its run has ended.
func (s *Selection) Close() {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if s.c.selections[s.runID] == s {
		delete(s.c.selections, s.runID)
	}
}

// Registry is the registry the selection draws from: the run's tools.
func (s *Selection) Registry() *Registry { return s.reg }

// Defs describes the offered tools to the model, in registration order.
func (s *Selection) Defs() []llm.ToolDef {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := s.reg.Defs()
	if s.active == nil {
		return all
	}
	out := make([]llm.ToolDef, 0, len(all))
	for _, d := range all {
		if skill, ok := s.skillOf[d.Name]; !ok || s.active[skill] {
			out = append(out, d)
		}
	}
	return out
}

// Skills names the skills whose tools are offered; nil means all.
func (s *Selection) Skills() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return nil
	}
	var names []string
	for name := range s.active {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// SavedTokens is the estimate of the schema tokens that the tools left out
// would have cost in every request.
func (s *Selection) SavedTokens() int {
	return contextmgr.EstimateTools(s.reg.Defs()) - contextmgr.EstimateTools(s.Defs())
}

// activate offers skill's tools from the next request on. It reports
// whether they were left out until now.
func (s *Selection) activate(skill string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil || s.active[skill] {
		return false
	}
	s.active[skill] = true
	return true
}

// rankSkills picks the skills whose words the task shares most, best first,
// while their tools fit in limit. A skill's name weighs more than its
// description and its tools' words.
func rankSkills(task string, skills []Skill, reg *Registry, limit int) map[string]bool {
	want := terms(task)
	type scored struct {
		name  string
		score int
		tools int
		order int
	}
	var ranked []scored
	for i, sk := range skills {
		if sk.Status != StatusLoaded || len(sk.Tools) == 0 {
			continue
		}
		name := terms(strings.ReplaceAll(sk.Name, "_", " "))
		var text strings.Builder
		text.WriteString(sk.Description)
		for _, tn := range sk.Tools {
			t, _ := reg.Get(tn)
			text.WriteString(" " + strings.ReplaceAll(tn, "_", " ") + " " + t.Description)
		}
		body := terms(text.String())
		score := 0
		for w := range want {
			switch {
			case name[w]:
				score += 3
			case body[w]:
				score++
			}
		}
		if score > 0 {
			ranked = append(ranked, scored{sk.Name, score, len(sk.Tools), i})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	active, used := map[string]bool{}, 0
	for _, r := range ranked {
		if used+r.tools > limit {
			continue
		}
		active[r.name] = true
		used += r.tools
	}
	return active
}

var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "this": true, "that": true, "from": true, "into": true,
	"use": true, "when": true, "what": true, "are": true, "its": true, "you": true, "your": true, "all": true,
	"tool": true, "tools": true, "returns": true, "return": true, "give": true, "such": true,
}

// terms are the words of text that can match across a task and a skill:
// lower-case Latin words of three letters or more, with a plural s dropped,
// and pairs of adjacent Han characters, since Chinese has no spaces.
func terms(text string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var han []rune
	flush := func() {
		if len(word) >= 3 {
			w := strings.TrimSuffix(string(word), "s")
			if !stopWords[w] && !stopWords[string(word)] {
				out[w] = true
			}
		}
		word = word[:0]
		switch {
		case len(han) == 1:
			out[string(han)] = true
		case len(han) > 1:
			for i := 0; i+1 < len(han); i++ {
				out[string(han[i:i+2])] = true
			}
		}
		han = han[:0]
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.Is(unicode.Han, r):
			if len(word) > 0 {
				flush()
			}
			han = append(han, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(han) > 0 {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

type loadSkillArgs struct {
	Name string `json:"name" description:"The skill's name, exactly as listed in this tool's description."`
}

// addLoadSkill registers load_skill when there is something to load:
// instructions from a SKILL.md, or skills left out of a run's tools.
func (b *build) addLoadSkill(c *Catalog) {
	var lines []string
	hasInstructions := false
	for _, s := range b.skills {
		if s.Status != StatusLoaded {
			continue
		}
		hasInstructions = hasInstructions || s.Instructions != ""
		lines = append(lines, "- "+s.Name+": "+oneLine(s.Description))
	}
	if !hasInstructions && len(b.reg.Names()) <= b.opts.SelectAbove {
		return
	}
	skills := slices.Clone(b.skills)
	t := Func(LoadSkillTool,
		"Load a skill by name before you work on something it covers: returns the skill's instructions, and makes "+
			"its tools available from your next turn if you do not have them yet. Load only what the task needs. "+
			"The skills:\n"+strings.Join(lines, "\n"),
		RiskRead, func(_ context.Context, env Env, a loadSkillArgs) (string, error) {
			return loadSkill(c, skills, env.RunID, a.Name)
		})
	if err := b.reg.Register(t); err != nil {
		panic(err) // no skill tool may take this name: Register refused it above
	}
}

func loadSkill(c *Catalog, skills []Skill, runID, name string) (string, error) {
	i := slices.IndexFunc(skills, func(s Skill) bool { return strings.EqualFold(s.Name, name) && s.Status == StatusLoaded })
	if i < 0 {
		return "", Errorf("there is no skill named %q; the skills are: %s. Call load_skill with one of these names.",
			name, strings.Join(loadedNames(skills), ", "))
	}
	s := skills[i]
	c.mu.RLock()
	sel := c.selections[runID]
	c.mu.RUnlock()
	var b strings.Builder
	if s.Instructions != "" {
		fmt.Fprintf(&b, "Instructions of the skill %s:\n\n%s\n", s.Name, s.Instructions)
	}
	switch {
	case len(s.Tools) == 0:
	case sel != nil && sel.activate(s.Name):
		fmt.Fprintf(&b, "\nThe tools of %s are available from your next turn: %s.", s.Name, strings.Join(s.Tools, ", "))
	default:
		fmt.Fprintf(&b, "\nThe tools of %s are already available to you: %s.", s.Name, strings.Join(s.Tools, ", "))
	}
	return strings.TrimSpace(b.String()), nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	return s
}
