package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"hermes/backend/toolbox"
)

type appendNoteArgs struct {
	Note    string `json:"note" description:"The note to add to: its path from the vault root (Journal/2024-05-01.md), its name, or a wikilink such as [[Plan]]. It must exist; use create_note for a new note."`
	Content string `json:"content" description:"Markdown to add, on a line of its own; a line break is added at its end if missing."`
	Heading string `json:"heading,omitempty" description:"Add at the end of the section under this heading instead of at the end of the note."`
}

func appendNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("append_note",
		"Add text to the end of a note in the user's Obsidian vault, or to the end of one of its sections. Use it to "+
			"record a summary, a log entry or a task without touching what the note already says. The note keeps its "+
			"encoding and line endings, the write is atomic, and the previous content is kept with the run so the "+
			"user can undo it. Returns the note's path and its new size.",
		toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a appendNoteArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.appendNote(env, a)
		})
}

type createNoteArgs struct {
	Path     string `json:"path" description:"Where to create the note, from the vault root, such as Projects/Plan.md. Only Markdown notes can be created: the name ends in .md (added when there is no extension); missing folders are created."`
	Content  string `json:"content,omitempty" description:"The note's Markdown, front matter included if wanted; after the template's text when a template is given."`
	Template string `json:"template,omitempty" description:"A template of the vault's templates folder (as set in Obsidian's Templates settings), such as Meeting: the note starts with its text, {{title}}, {{date}} and {{time}} filled in."`
}

func createNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("create_note",
		"Create a new note in the user's Obsidian vault. Use it when the task asks for a new note; to add to an "+
			"existing one use append_note. It never replaces a note: if the path is taken it fails, and you should "+
			"pick another name or append. Missing folders are created; the note is written atomically in UTF-8. "+
			"With a template, the note starts from the user's template in the vault's templates folder. Returns the "+
			"note's path and how other notes link to it, as the vault's settings write links ([[name]] by default).",
		toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a createNoteArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.createNote(env, a)
		})
}

func (v *Vault) appendNote(env toolbox.Env, a appendNoteArgs) (string, error) {
	pl, add, where, err := v.planAppend(a)
	if err != nil {
		return "", err
	}
	// The note keeps its permissions; Obsidian, a sync client or a crash
	// sees the old note or the new one, never half.
	c, err := v.applyPlan(env, pl)
	if err != nil {
		return "", err
	}
	undo := ""
	if ref := c.Notes[0].BeforeRef; ref != "" {
		undo = "; its previous content is kept in " + ref
	}
	f := pl.files[0]
	t := Decode(f.after)
	return fmt.Sprintf("appended %d characters to %s at %s (now %d bytes, %s%s)%s",
		len([]rune(add)), f.path, where, len(f.after), t.Encoding, lineEndings(t.CRLF), undo), nil
}

// planAppend plans append_note; it returns the text added and where.
func (v *Vault) planAppend(a appendNoteArgs) (pl *plan, add, where string, err error) {
	p, _, err := v.findNote(a.Note)
	if err != nil {
		return nil, "", "", err
	}
	if !isNote(p) {
		return nil, "", "", toolbox.Errorf("%s is not a Markdown note; append_note only changes .md notes", p)
	}
	t, before, err := v.readText(p)
	if err != nil {
		return nil, "", "", err
	}
	if t.Encoding == Unknown {
		return nil, "", "", toolError(p, ErrUnknownEncoding)
	}
	add = strings.ReplaceAll(a.Content, "\r\n", "\n")
	if !strings.HasSuffix(add, "\n") {
		add += "\n"
	}
	where = "the end"
	if a.Heading != "" {
		t.Text, err = insertInSection(p, t.Text, a.Heading, add)
		if err != nil {
			return nil, "", "", err
		}
		where = fmt.Sprintf("the end of section %q", a.Heading)
	} else {
		if t.Text != "" && !strings.HasSuffix(t.Text, "\n") {
			t.Text += "\n"
		}
		t.Text += add
	}
	data, err := t.Encode()
	if err != nil {
		return nil, "", "", toolError(p, err)
	}
	return &plan{tool: "append_note", files: []fileEdit{{
		path: p, before: before, after: data, beforeText: Decode(before).Text, afterText: t.Text,
	}}}, add, where, nil
}

// insertInSection adds add at the end of the section under heading.
func insertInSection(p, text, heading, add string) (string, error) {
	n := parse(p, text)
	lines := strings.Split(text, "\n")
	for i, h := range n.Headings {
		if !strings.EqualFold(h.Text, strings.TrimSpace(heading)) {
			continue
		}
		end := len(lines)
		for _, next := range n.Headings[i+1:] {
			if next.Level <= h.Level {
				end = next.Line - 1
				break
			}
		}
		// Blank lines before the next heading stay between the added text
		// and that heading.
		for end > h.Line && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		return strings.Join(lines[:end], "\n") + "\n" + add + strings.Join(lines[end:], "\n"), nil
	}
	return "", toolbox.Errorf("%s has no heading %q; call read_note to see its headings, or append without heading", p, heading)
}

func lineEndings(crlf bool) string {
	if crlf {
		return ", CRLF line endings"
	}
	return ""
}

func (v *Vault) createNote(env toolbox.Env, a createNoteArgs) (string, error) {
	pl, err := v.planCreate(a)
	if err != nil {
		return "", err
	}
	// Created only if the name is still free: a note that appeared since
	// the check is not replaced.
	if _, err := v.applyPlan(env, pl); err != nil {
		return "", err
	}
	f := pl.files[0]
	return fmt.Sprintf("created %s (%d bytes); %s; to undo, delete it", f.path, len(f.after), v.linkAdvice(f.path)), nil
}

// planCreate plans create_note.
func (v *Vault) planCreate(a createNoteArgs) (*plan, error) {
	p, err := v.clean(a.Path)
	if err != nil {
		return nil, toolError(a.Path, err)
	}
	if p == "" {
		return nil, toolbox.Errorf("give the new note a path such as Projects/Plan.md")
	}
	if i := strings.IndexAny(path.Base(p), `[]#^|:*?"<>`); i >= 0 {
		return nil, toolbox.Errorf("%q cannot be a note name: %q breaks Obsidian links or is not allowed in file names; choose a name without [ ] # ^ | : * ? \" < >", a.Path, path.Base(p)[i:i+1])
	}
	if path.Ext(p) == "" {
		p += ".md"
	}
	if !isNote(p) {
		return nil, toolbox.Errorf("%q is not a Markdown note: create_note only creates Markdown notes, whose names end in .md, and no other kind of file; give a path such as %q", a.Path, p+".md")
	}
	if _, err := v.root.Lstat(p); err == nil {
		return nil, toolbox.Errorf("%s already exists and create_note never replaces a note; choose another name, or use append_note to add to it", p)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, toolError(p, err)
	}
	content := strings.ReplaceAll(a.Content, "\r\n", "\n")
	if a.Template != "" {
		now := v.now()
		text, err := v.template(a.Template, noteName(p), now)
		if err != nil {
			return nil, err
		}
		if content != "" && text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		content = text + content
	}
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return &plan{tool: "create_note", files: []fileEdit{{path: p, after: []byte(content), afterText: content}}}, nil
}
