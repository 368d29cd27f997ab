package vault

import (
	"strings"
)

// frontMatter splits a note into its YAML front matter (between a first
// line "---" and the next "---" or "...") and the line where the body
// starts. A note without one has an empty map and starts at line 0.
func frontMatter(lines []string) (map[string][]string, int) {
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return nil, 0
	}
	for end := 1; end < len(lines); end++ {
		if l := strings.TrimRight(lines[end], " \t"); l == "---" || l == "..." {
			return parseYAML(lines[1:end]), end + 1
		}
	}
	return nil, 0
}

// parseYAML reads the part of YAML that note properties use: "key: value",
// "key: [a, b]" and "key:" followed by "- item" lines. Nested maps are
// skipped. Each key maps to its values as text.
func parseYAML(lines []string) map[string][]string {
	out := map[string][]string{}
	key := ""
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if item, ok := strings.CutPrefix(trimmed, "- "); ok || trimmed == "-" {
			if v := unquote(item); key != "" && v != "" {
				out[key] = append(out[key], v)
			}
			continue
		}
		if line != strings.TrimLeft(line, " \t") {
			continue // a nested map's line
		}
		k, value, ok := strings.Cut(trimmed, ":")
		if !ok {
			key = ""
			continue
		}
		key = strings.TrimSpace(unquote(k))
		value = strings.TrimSpace(value)
		switch {
		case value == "" || value == "|" || value == ">":
			out[key] = out[key][:0:0]
		case strings.HasPrefix(value, "[") && strings.HasSuffix(value, "]"):
			var vs []string
			for _, part := range splitFlow(value[1 : len(value)-1]) {
				if v := unquote(strings.TrimSpace(part)); v != "" {
					vs = append(vs, v)
				}
			}
			out[key] = vs
		default:
			out[key] = []string{unquote(stripComment(value))}
		}
	}
	return out
}

// splitFlow splits a flow list's inside at commas outside quotes.
func splitFlow(s string) []string {
	var parts []string
	var quote rune
	start := 0
	for i, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote = r
		case quote == 0 && r == ',':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// stripComment drops a " #" comment from an unquoted scalar.
func stripComment(s string) string {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "'") {
		return s
	}
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}

// property returns the values of a front-matter key, matched without
// regard to case.
func property(fm map[string][]string, key string) []string {
	for k, vs := range fm {
		if strings.EqualFold(k, key) {
			return vs
		}
	}
	return nil
}
