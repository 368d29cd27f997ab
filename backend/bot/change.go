package bot

import (
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/i18n"
	"hermes/backend/vault"
)

// A call the bot was not allowed to run is told in the chat with what it
// would have changed, when its tool can tell (a vault edit), so that the
// person judges the change, not only the call's name: each note (renamed
// → new path, or new), its links and properties before → after, the
// sections it adds or removes, and a few of its lines as - and +. A chat
// message stays short: a handful of notes, of links and of lines each.
const (
	changeNotes = 6  // notes shown, then how many more
	changeItems = 3  // links shown per note
	changeLines = 6  // lines shown per note
	changeWidth = 80 // characters of a line shown
)

// changeText is what the change an approval carried would have done, in
// lang; "" for a call without one.
func changeText(lang i18n.Lang, raw json.RawMessage) string {
	var c vault.Change
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil || len(c.Notes) == 0 && c.Folder == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(i18n.In(lang, "bot.change.title"))
	if c.Folder != nil {
		fmt.Fprintf(&b, "\n• %s", i18n.In(lang, "bot.change.folder", c.Folder.From, c.Folder.To))
	}
	for i, n := range c.Notes {
		if i == changeNotes {
			fmt.Fprintf(&b, "\n%s", i18n.In(lang, "bot.change.more_notes", len(c.Notes)-i))
			break
		}
		switch {
		case n.NewPath != "":
			fmt.Fprintf(&b, "\n• %s → %s", n.Path, n.NewPath)
		case n.Created:
			fmt.Fprintf(&b, "\n• %s", i18n.In(lang, "bot.change.created", n.Path))
		default:
			fmt.Fprintf(&b, "\n• %s", n.Path)
		}
		for j, l := range n.Links {
			if j == changeItems {
				fmt.Fprintf(&b, "\n  %s", i18n.In(lang, "bot.change.more_links", len(n.Links)-j))
				break
			}
			fmt.Fprintf(&b, "\n  %s → %s", orNone(lang, l.Before), orNone(lang, l.After))
		}
		for _, p := range n.Properties {
			switch {
			case p.Added:
				fmt.Fprintf(&b, "\n  %s: + %s", p.Name, shown(p.After))
			case p.Removed:
				fmt.Fprintf(&b, "\n  %s: - %s", p.Name, shown(p.Before))
			default:
				fmt.Fprintf(&b, "\n  %s: %s → %s", p.Name, shown(p.Before), shown(p.After))
			}
		}
		for _, s := range n.SectionsAdded {
			fmt.Fprintf(&b, "\n  %s", i18n.In(lang, "bot.change.section_added", s))
		}
		for _, s := range n.SectionsRemoved {
			fmt.Fprintf(&b, "\n  %s", i18n.In(lang, "bot.change.section_removed", s))
		}
		if len(n.Links) == 0 && len(n.Properties) == 0 {
			lineDiff(&b, lang, n.Hunks)
		}
	}
	return b.String()
}

// lineDiff writes a note's first lines removed (-) and added (+).
func lineDiff(b *strings.Builder, lang i18n.Lang, hunks []vault.Hunk) {
	n := 0
	for _, h := range hunks {
		for _, side := range []struct {
			mark  string
			lines []string
		}{{"-", h.Before}, {"+", h.After}} {
			for _, l := range side.lines {
				if n++; n <= changeLines {
					fmt.Fprintf(b, "\n  %s %s", side.mark, preview(l, changeWidth))
				}
			}
		}
	}
	if n > changeLines {
		fmt.Fprintf(b, "\n  %s", i18n.In(lang, "bot.change.more_lines", n-changeLines))
	}
}

// shown is a property's value as one line.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return preview(s, changeWidth)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return preview(string(b), changeWidth)
}

func orNone(lang i18n.Lang, link string) string {
	if link == "" {
		return i18n.In(lang, "bot.change.none")
	}
	return link
}
