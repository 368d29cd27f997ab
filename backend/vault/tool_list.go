package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"hermes/backend/toolbox"
)

type listNotesArgs struct {
	Folder string `json:"folder,omitempty" description:"Folder to list, relative to the vault root; leave empty for the root."`
	Depth  int    `json:"depth" default:"1" minimum:"1" maximum:"20" description:"How many folder levels to go down: 1 lists the folder's own notes and its subfolders."`
	Limit  int    `json:"limit" default:"200" minimum:"1" maximum:"1000" description:"Most lines to return."`
}

func listNotesTool(get opener) toolbox.Tool {
	return toolbox.Func("list_notes",
		"List the notes (Markdown files) of the user's Obsidian vault in a folder. Use it to see how the vault is "+
			"organised, or to find a note by where it lives when search_notes misses it. Returns one line per entry, "+
			"sorted: subfolders with a trailing slash and how many notes they hold, notes as paths from the vault "+
			"root (pass them to read_note). Folders deeper than depth are shown but not opened. Obsidian's settings "+
			"and trash are never listed.",
		toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a listNotesArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.listNotes(a)
		})
}

func (v *Vault) listNotes(a listNotesArgs) (string, error) {
	folder, err := v.clean(a.Folder)
	if err != nil {
		return "", toolError(a.Folder, err)
	}
	prefix := ""
	if folder != "" {
		prefix = folder + "/"
	}
	var notes []string
	folders := map[string]int{} // shown folder → notes below it
	v.rlockAll()
	for p := range v.notes {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		parts := strings.Split(rest, "/")
		if len(parts) <= a.Depth {
			notes = append(notes, p)
		}
		for i := 1; i < len(parts) && i <= a.Depth; i++ {
			folders[prefix+strings.Join(parts[:i], "/")]++
		}
	}
	v.mu.RUnlock()

	where := "the vault root"
	if folder != "" {
		where = folder
	}
	if len(notes) == 0 && len(folders) == 0 {
		if fi, err := v.root.Stat(orDot(folder)); errors.Is(err, fs.ErrNotExist) {
			return "", toolbox.Errorf("there is no folder %s in the vault; call list_notes without a folder to see the top level", a.Folder)
		} else if err != nil {
			return "", toolError(a.Folder, err)
		} else if !fi.IsDir() {
			return "", toolbox.Errorf("%s is a note, not a folder; call read_note to read it", a.Folder)
		}
		return fmt.Sprintf("%s holds no notes.", where), nil
	}
	lines := make([]string, 0, len(notes)+len(folders))
	for f, n := range folders {
		lines = append(lines, fmt.Sprintf("%s/ (%s)", f, plural(n, "note", "notes")))
	}
	lines = append(lines, notes...)
	slices.SortFunc(lines, func(x, y string) int { return strings.Compare(sortKey(x), sortKey(y)) })
	var b strings.Builder
	fmt.Fprintf(&b, "%s and %s in %s:\n", plural(len(notes), "note", "notes"), plural(len(folders), "folder", "folders"), where)
	b.WriteString(strings.Join(lines[:min(a.Limit, len(lines))], "\n"))
	if len(lines) > a.Limit {
		fmt.Fprintf(&b, "\n… %s not shown; list a subfolder, or raise limit.", plural(len(lines)-a.Limit, "more line", "more lines"))
	}
	return b.String(), nil
}

// sortKey orders a folder just before the notes inside it.
func sortKey(line string) string {
	if i := strings.Index(line, "/ ("); i >= 0 {
		return strings.ToLower(line[:i+1])
	}
	return strings.ToLower(line)
}
