package vault

import (
	"context"
	_ "embed"
	"fmt"

	"hermes/backend/toolbox"
)

type renameNoteArgs struct {
	Path    string `json:"path" description:"The note to rename or move (its path from the vault root, its name, or a [[wikilink]]), or a folder to move with every note in it."`
	NewPath string `json:"new_path" description:"Its new path from the vault root, such as Archive/Plan 2024.md; a folder that exists, or a path ending in /, moves the note there under the same name."`
}

//go:embed rename_note.md
var renameNoteMD string

func init() { register(renameNoteTool) }

func renameNoteTool(get opener) toolbox.Tool {
	return toolbox.Func("rename_note", renameNoteMD, toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a renameNoteArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		pl, err := v.planRename(a.Path, a.NewPath)
		if err != nil {
			return "", err
		}
		c, err := v.applyPlan(env, pl)
		if err != nil {
			return "", err
		}
		links, notes := 0, 0
		for _, n := range c.Notes {
			if len(n.Links) > 0 {
				links += len(n.Links)
				notes++
			}
		}
		return fmt.Sprintf("renamed %s to %s; %s changed in %s:", a.Path, a.NewPath, plural(links, "link", "links"), plural(notes, "note", "notes")) + c.summary(), nil
	})
}
