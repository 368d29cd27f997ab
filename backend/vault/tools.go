package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"hermes/backend/toolbox"
)

// Tools are the vault tools for the model, bound to v: search_notes,
// read_note, list_notes, get_backlinks, list_tags, get_properties,
// query_notes and get_links (risk read), and append_note, create_note,
// edit_note, set_property, rename_note and daily_note (risk write).
func Tools(v *Vault) []toolbox.Tool {
	return tools(func() (*Vault, error) { return v, nil })
}

// opener gives a tool its vault when it is called.
type opener func() (*Vault, error)

// tools are the vault's tools as registered (register), in the order the
// obsidian skill offers them.
func tools(get opener) []toolbox.Tool {
	return toolbox.Builtins(toolbox.With{Vault: get}, skillName)
}

// toolError turns a failure on the vault path p into a sentence for the
// model with a next step.
func toolError(p string, err error) error {
	var pe *pathError
	switch {
	case errors.As(err, &pe):
		return toolbox.Errorf("%s", pe.msg)
	case escapes(err):
		return toolbox.Errorf("%s leads outside the vault through a symbolic link, so it cannot be used; choose a note inside the vault (call list_notes)", p)
	case errors.Is(err, fs.ErrNotExist):
		return toolbox.Errorf("there is no note %s in the vault; call search_notes or list_notes to find the right path", p)
	case errors.Is(err, fs.ErrPermission):
		return toolbox.Errorf("permission denied for %s; the user has not given access to it, so choose another note", p)
	case errors.Is(err, syscall.ENOTDIR):
		return toolbox.Errorf("%s: a part of the path is a file, not a folder; call list_notes to check the path", p)
	case errors.Is(err, ErrUnknownEncoding):
		return toolbox.Errorf("%s is in a text encoding Hermes does not recognise, so it is not written, to avoid damaging it; tell the user", p)
	}
	return toolbox.Errorf("could not access %s (%v); try once more, then choose another note", p, err)
}

// escapes reports whether os.Root refused a path because it leads out of
// the root (through "..", an absolute symbolic link or one that climbs out).
// os.Root does not export this error.
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// findNote turns what the model named (a path, with or without ".md", or a
// wikilink such as [[Plan#Goals|the plan]], Plan#Goals or Plan#^block)
// into a note path and what followed its "#" (a heading, a path of
// headings, or ^block), if anything. Its errors are meant for the model.
func (v *Vault) findNote(name string) (p, heading string, err error) {
	s := strings.TrimSpace(name)
	if inner, ok := strings.CutPrefix(strings.TrimPrefix(s, "!"), "[["); ok {
		s = strings.TrimSuffix(inner, "]]")
		s, _, _ = strings.Cut(s, "|")
		s = strings.TrimSuffix(s, `\`) // a link in a table escapes its "|"
	}
	// Note#Heading, Note#A#B, Note#^block: no note's name holds "#", but a
	// folder's may (C#/Notes), so the longest part before a "#" that is a
	// note's path wins, else the part before the first.
	whole := s
	s, heading, _ = strings.Cut(whole, "#")
	for i := len(whole); i > len(s); i = strings.LastIndexByte(whole[:i], '#') {
		if c, err := v.clean(whole[:i]); err == nil && c != "" {
			_, note := v.Note(c)
			_, md := v.Note(c + ".md")
			if note || md {
				s, heading = whole[:i], strings.TrimPrefix(whole[i:], "#")
				break
			}
		}
	}
	s = strings.TrimSpace(s)
	clean, err := v.clean(s)
	if err != nil {
		return "", "", toolError(name, err)
	}
	if clean == "" {
		return "", "", toolbox.Errorf("%q names the vault root, not a note; give a note's path such as Projects/Plan.md, or a wikilink such as [[Plan]]", name)
	}
	for _, candidate := range []string{clean, clean + ".md"} {
		if _, ok := v.Note(candidate); ok {
			return candidate, heading, nil
		}
	}
	if found, ok := v.Resolve(clean, ""); ok {
		return found, heading, nil
	}
	// Not a note the index knows (another kind of text file, or one
	// created a moment ago): the file system has the last word.
	if _, err := v.root.Stat(clean); errors.Is(err, fs.ErrNotExist) {
		return "", "", toolbox.Errorf("there is no note %s in the vault; call search_notes or list_notes to find the right path, or create_note to make it", name)
	} else if err != nil {
		return "", "", toolError(name, err)
	}
	return clean, heading, nil
}

// readText reads and decodes the file at the vault path p.
func (v *Vault) readText(p string) (Text, []byte, error) {
	b, err := v.root.ReadFile(p)
	if err != nil {
		return Text{}, nil, toolError(p, err)
	}
	t := Decode(b)
	if strings.ContainsRune(t.Text, 0) {
		return Text{}, nil, toolbox.Errorf("%s is a binary file, not a note; choose a Markdown note", p)
	}
	return t, b, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
