package vault

import (
	"encoding/json"
	"fmt"

	"hermes/backend/i18n"
)

// TextLimits bound what ChangeText shows; 0 is no bound.
type TextLimits struct {
	Notes int // notes shown, then how many more
	Links int // links shown per note
	Lines int // lines shown per note
	Width int // characters of a line or a value shown
}

// ChangeText is a vault edit's change (approval.requested's change) as
// plain lines, for a terminal or a chat where no diff can be drawn: each
// note as "• path", "• path → new path" or "• path (a new note)", then,
// indented, its links and properties before → after, the sections it adds
// or removes, and — for a note whose links and properties do not tell the
// change — its lines as - and +. None for a call without a change.
func ChangeText(lang i18n.Lang, raw json.RawMessage, lim TextLimits) []string {
	var c Change
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil || len(c.Notes) == 0 && c.Folder == nil {
		return nil
	}
	clip := func(s string) string {
		if r := []rune(s); lim.Width > 0 && len(r) > lim.Width {
			return string(r[:lim.Width]) + "…"
		}
		return s
	}
	value := func(v any) string {
		if s, ok := v.(string); ok {
			return clip(s)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return clip(fmt.Sprint(v))
		}
		return clip(string(b))
	}
	link := func(l string) string {
		if l == "" {
			return i18n.In(lang, "vault.change.none")
		}
		return clip(l)
	}
	var out []string
	if c.Folder != nil {
		out = append(out, "• "+i18n.In(lang, "vault.change.folder", c.Folder.From, c.Folder.To))
	}
	for i, n := range c.Notes {
		if lim.Notes > 0 && i == lim.Notes {
			out = append(out, i18n.In(lang, "vault.change.more_notes", len(c.Notes)-i))
			break
		}
		switch {
		case n.NewPath != "":
			out = append(out, "• "+n.Path+" → "+n.NewPath)
		case n.Created:
			out = append(out, "• "+i18n.In(lang, "vault.change.created", n.Path))
		default:
			out = append(out, "• "+n.Path)
		}
		for j, l := range n.Links {
			if lim.Links > 0 && j == lim.Links {
				out = append(out, "  "+i18n.In(lang, "vault.change.more_links", len(n.Links)-j))
				break
			}
			out = append(out, "  "+link(l.Before)+" → "+link(l.After))
		}
		for _, p := range n.Properties {
			switch {
			case p.Added:
				out = append(out, fmt.Sprintf("  %s: + %s", p.Name, value(p.After)))
			case p.Removed:
				out = append(out, fmt.Sprintf("  %s: - %s", p.Name, value(p.Before)))
			default:
				out = append(out, fmt.Sprintf("  %s: %s → %s", p.Name, value(p.Before), value(p.After)))
			}
		}
		for _, s := range n.SectionsAdded {
			out = append(out, "  "+i18n.In(lang, "vault.change.section_added", s))
		}
		for _, s := range n.SectionsRemoved {
			out = append(out, "  "+i18n.In(lang, "vault.change.section_removed", s))
		}
		if len(n.Links) == 0 && len(n.Properties) == 0 {
			out = append(out, hunkLines(lang, n.Hunks, lim, clip)...)
		}
	}
	return out
}

// hunkLines is a note's lines removed (-) and added (+), by line number.
func hunkLines(lang i18n.Lang, hunks []Hunk, lim TextLimits, clip func(string) string) []string {
	var out []string
	n := 0
	for _, h := range hunks {
		for _, side := range []struct {
			mark  string
			lines []string
		}{{"-", h.Before}, {"+", h.After}} {
			for _, l := range side.lines {
				if n++; lim.Lines == 0 || n <= lim.Lines {
					out = append(out, fmt.Sprintf("  %4d %s %s", h.Line, side.mark, clip(l)))
				}
			}
		}
	}
	if lim.Lines > 0 && n > lim.Lines {
		out = append(out, "  "+i18n.In(lang, "vault.change.more_lines", n-lim.Lines))
	}
	return out
}
