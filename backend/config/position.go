package config

import (
	"slices"
	"strings"
)

// keyPositions finds where each key of a TOML document is written, as dotted
// keys ("model.base_url") mapped to line and column. The TOML library keeps
// positions to itself, so this reads the lines the way TOML lays them out:
// table headers, then key = value lines, skipping multi-line strings. It runs
// only on a document the parser has accepted.
func keyPositions(src string) map[string]pos {
	out := map[string]pos{}
	var table []string
	inMulti := ""
	for n, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		if inMulti != "" {
			if strings.Count(trimmed, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(trimmed, "["):
			name := strings.Trim(strings.SplitN(trimmed, "]", 2)[0], "[ \t")
			if strings.HasPrefix(trimmed, "[[") {
				name = strings.Trim(strings.SplitN(trimmed, "]]", 2)[0], "[ \t")
			}
			table = splitKey(name)
			setOnce(out, strings.Join(table, "."), pos{n + 1, col})
		default:
			key, value, ok := strings.Cut(trimmed, "=")
			if !ok {
				continue
			}
			full := append(slices.Clone(table), splitKey(key)...)
			setOnce(out, strings.Join(full, "."), pos{n + 1, col})
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(value, q)%2 == 1 {
					inMulti = q
				}
			}
		}
	}
	return out
}

func setOnce(m map[string]pos, k string, p pos) {
	if _, ok := m[k]; !ok {
		m[k] = p
	}
}

// splitKey splits a dotted TOML key, unquoting quoted parts.
func splitKey(key string) []string {
	var parts []string
	for _, p := range strings.Split(key, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return parts
}
