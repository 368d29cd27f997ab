package vault

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/toolbox"
)

type readNoteArgs struct {
	Note    string `json:"note" description:"The note: its path from the vault root (Projects/Plan.md; \".md\" may be left out), its name (Plan), or a wikilink as written in a note ([[Plan]], [[Plan#Goals]], [[Plan|the plan]]); aliases work too. Plan#Goals reads one section, Plan#Goals#Risks a heading under another, Plan#^id one block."`
	Heading string `json:"heading,omitempty" description:"Return only the section under this heading (up to the next heading of the same or a higher level), such as Goals; Goals#Risks for a heading under another."`
	Block   string `json:"block,omitempty" description:"Return only the block marked with this id, such as ^summary: a paragraph, list item, table or quote."`
}

func readNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("read_note",
		"Read a note of the user's Obsidian vault, whole or one section. Use it after search_notes or list_notes to "+
			"see a note's content, or to follow a [[wikilink]] found in another note: links are resolved as Obsidian "+
			"resolves them (name, path, alias, without regard to case). Returns a first line with the note's path, "+
			"tags and aliases, then its text as written (front matter included), decoded from whatever encoding it "+
			"is stored in.",
		toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a readNoteArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.readNote(a)
		})
}

func (v *Vault) readNote(a readNoteArgs) (string, error) {
	p, heading, err := v.findNote(a.Note)
	if err != nil {
		return "", err
	}
	if a.Heading != "" {
		heading = a.Heading
	}
	t, _, err := v.readText(p)
	if err != nil {
		return "", err
	}
	n := parse(p, t.Text)
	header := "[" + p
	if len(n.Tags) > 0 {
		header += " · tags: #" + strings.Join(n.Tags, " #")
	}
	if len(n.Aliases) > 0 {
		header += " · aliases: " + strings.Join(n.Aliases, ", ")
	}
	if a.Block != "" {
		heading = "^" + strings.TrimPrefix(a.Block, "^")
	}
	text := t.Text
	switch {
	case strings.HasPrefix(heading, "^"):
		lines := strings.Split(t.Text, "\n")
		sp, ok := findBlock(lines, heading)
		if !ok {
			if ids := blockIDs(lines); len(ids) > 0 {
				return "", toolbox.Errorf("%s has no block %s; its blocks are: %s. Call read_note again with one of them, or without block", p, heading, strings.Join(ids, " "))
			}
			return "", toolbox.Errorf("%s has no block %s (no block of it is marked with ^id); read the whole note or one section", p, heading)
		}
		header += " · block " + heading
		text = strings.Join(lines[sp.start:sp.end], "\n")
	case heading != "":
		s, ok := section(n, t.Text, heading)
		if !ok {
			if len(n.Headings) == 0 {
				return "", toolbox.Errorf("%s has no headings, so it has no section %q; read the whole note without heading", p, heading)
			}
			return "", toolbox.Errorf("%s has no heading %q; its headings are: %s. Call read_note again with one of them, or without heading", p, heading, headingNames(n))
		}
		header += fmt.Sprintf(" · section %q", heading)
		text = s
	}
	if strings.TrimSpace(text) == "" {
		return header + "]\n(empty)", nil
	}
	return header + "]\n" + text, nil
}
