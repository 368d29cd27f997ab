package vault

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/toolbox"
)

type backlinksArgs struct {
	Note string `json:"note" description:"The note whose backlinks you want: its path from the vault root, its name, or a wikilink such as [[Plan]]."`
}

func backlinksTool(get opener) toolbox.Tool {
	return toolbox.Func("get_backlinks",
		"List the notes of the user's Obsidian vault that link to a note ([[wikilinks]], embeds and Markdown links "+
			"to .md files), resolved as Obsidian resolves them. Use it to find what refers to a topic, project or "+
			"person, or how notes connect. Returns one line per link: the linking note's path, the line number, and "+
			"that line's text.",
		toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a backlinksArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.backlinks(a)
		})
}

func (v *Vault) backlinks(a backlinksArgs) (string, error) {
	p, _, err := v.findNote(a.Note)
	if err != nil {
		return "", err
	}
	links := v.Backlinks(p)
	if len(links) == 0 {
		return fmt.Sprintf("No note links to %s.", p), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %s:", plural(len(links), "link", "links"), p)
	var lines []string
	from := ""
	for _, l := range links {
		if l.From != from {
			from, lines = l.From, nil
			if t, _, err := v.readText(l.From); err == nil {
				lines = strings.Split(t.Text, "\n")
			}
		}
		text := ""
		if l.Link.Line <= len(lines) {
			text = around(strings.TrimSpace(lines[l.Link.Line-1]), 0)
		}
		fmt.Fprintf(&b, "\n%s:%d: %s", l.From, l.Link.Line, text)
	}
	return b.String(), nil
}
