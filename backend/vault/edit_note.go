package vault

import (
	"context"
	_ "embed"
	"strings"

	"hermes/backend/toolbox"
)

type editNoteArgs struct {
	Path    string `json:"path" description:"The note: its path from the vault root, its name, or a wikilink such as [[Plan]]."`
	Heading string `json:"heading,omitempty" description:"The section to edit, by its heading (Goals), or a heading under another (Plan#Goals). The section runs to the next heading of the same or a higher level."`
	Block   string `json:"block,omitempty" description:"Instead of heading: the block to edit, by its id (^summary)."`
	Mode    string `json:"mode" enum:"append,prepend,replace" description:"append adds at the end of the section or after the block; prepend adds just under the heading or before the block; replace replaces the section's text under its heading (the heading stays) or the block (its ^id stays)."`
	Content string `json:"content" description:"The Markdown to add or to put instead."`
}

//go:embed edit_note.md
var editNoteMD string

func init() { register(editNoteTool) }

func editNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("edit_note", editNoteMD, toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a editNoteArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		pl, err := v.planEditNote(a)
		if err != nil {
			return "", err
		}
		c, err := v.applyPlan(env, pl)
		if err != nil {
			return "", err
		}
		return "edited " + pl.files[0].path + ":" + c.summary(), nil
	})
}

func (v *Vault) planEditNote(a editNoteArgs) (*plan, error) {
	p, linked, err := v.findNote(a.Path)
	if err != nil {
		return nil, err
	}
	target := a.Heading
	if a.Block != "" {
		if a.Heading != "" {
			return nil, toolbox.Errorf("give heading or block, not both")
		}
		target = "^" + strings.TrimPrefix(strings.TrimSpace(a.Block), "^")
	}
	if target == "" {
		target = linked
	}
	if target == "" {
		return nil, toolbox.Errorf("give the heading of the section to edit, or the block (^id); to add at the end of the whole note use append_note")
	}
	return v.editText("edit_note", p, func(raw string, crlf bool) (string, error) {
		return editSection(p, raw, target, a.Mode, a.Content, crlf)
	})
}

// editSection edits the section or block target ("^id" for a block) of a
// note's text, whose lines may end in "\r"; new lines end as crlf says.
// The content goes in as whole lines; no other line changes.
func editSection(p, raw, target, mode, content string, crlf bool) (string, error) {
	lines := strings.Split(raw, "\n")
	cr := ""
	if crlf {
		cr = "\r"
	}
	add := strings.Split(strings.TrimRight(strings.ReplaceAll(content, "\r\n", "\n"), "\n"), "\n")
	for i := range add {
		add[i] += cr
	}
	blank := func(i int) bool { return strings.TrimSpace(lines[i]) == "" }
	var at, end int // lines [at, end) are replaced by add
	if strings.HasPrefix(target, "^") {
		sp, ok := findBlock(lines, target)
		if !ok {
			if ids := blockIDs(lines); len(ids) > 0 {
				return "", toolbox.Errorf("%s has no block %s; its blocks are: %s", p, target, strings.Join(ids, " "))
			}
			return "", toolbox.Errorf("%s has no block %s (no block of it is marked with ^id); edit a section by its heading instead", p, target)
		}
		switch mode {
		case "append":
			at, end = sp.end, sp.end
		case "prepend":
			at, end = sp.start, sp.start
		default:
			at, end = sp.start, sp.end
			// The block keeps its id, so that links to it still resolve.
			last := strings.TrimRight(lines[sp.end-1], "\r")
			id := blockIDRE().FindStringSubmatch(last)[1]
			if strings.TrimSpace(last) == "^"+id {
				end-- // an id on a line of its own stays as it is
			} else if !strings.Contains(content, "^"+id) {
				add[len(add)-1] = strings.TrimSuffix(add[len(add)-1], cr) + " ^" + id + cr
			}
		}
	} else {
		n := parse(p, strings.ReplaceAll(raw, "\r\n", "\n"))
		sp, h, ok := findSection(n, len(lines), target)
		if !ok {
			if len(n.Headings) == 0 {
				return "", toolbox.Errorf("%s has no headings, so it has no section %q; use append_note to add to the note", p, target)
			}
			return "", toolbox.Errorf("%s has no heading %q; its headings are: %s. Call edit_note again with one of them", p, target, headingNames(n))
		}
		body := h.Line // the line under the heading
		last := sp.end // after the section's last line that is not blank
		for last > body && blank(last-1) {
			last--
		}
		switch mode {
		case "append":
			at, end = last, last
		case "prepend":
			at = body
			for at < last && blank(at) {
				at++
			}
			end = at
		default:
			at, end = body, last
			if body < last && blank(body) {
				add = append([]string{cr}, add...) // the blank line under the heading stays
			}
		}
	}
	out := append(append(append(make([]string, 0, len(lines)+len(add)), lines[:at]...), add...), lines[end:]...)
	return strings.Join(out, "\n"), nil
}
