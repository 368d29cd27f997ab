package toolbox

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"hermes/backend/atomicfile"
)

type writeFileArgs struct {
	Path    string `json:"path" description:"File to write, relative to the workspace root; missing parent directories are created."`
	Content string `json:"content" description:"The text to write."`
	Append  bool   `json:"append" default:"false" description:"Add content at the end of the file instead of replacing it."`
}

//go:embed write_file.md
var writeFileMD string

func init() {
	Register(Builtin{Skill: SkillFiles, Make: func(w With) (Tool, bool) { return writeFileTool(w.Environ), true }})
}

func writeFileTool(environ *Environ) Tool {
	return Func("write_file", writeFileMD, RiskWrite, func(ctx context.Context, env Env, a writeFileArgs) (string, error) {
		return writeFile(env, environ, a)
	})
}

func writeFile(env Env, environ *Environ, a writeFileArgs) (string, error) {
	w, p, err := openFile(env, environ, a.Path)
	if err != nil {
		return "", err
	}
	defer w.Close()
	if p == "." {
		return "", Errorf("the path %q names the workspace root, not a file; give a file path such as notes/result.md", a.Path)
	}

	var old []byte
	fi, err := w.root.Stat(p)
	existed := err == nil
	switch {
	case err == nil && fi.IsDir():
		return "", Errorf("%s is a directory; give a file path inside it, such as %s", a.Path, filepath.ToSlash(filepath.Join(a.Path, "result.md")))
	case err == nil && !fi.Mode().IsRegular():
		return "", Errorf("%s is not a regular file (%s) and cannot be written; choose another path", a.Path, fi.Mode().Type())
	case err == nil:
		if a.Append {
			if old, err = w.root.ReadFile(p); err != nil {
				return "", fsError(a.Path, "file", err)
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", fsError(a.Path, "file", err)
	}

	if dir := filepath.Dir(p); dir != "." {
		if err := w.root.MkdirAll(dir, 0o755); err != nil {
			return "", fsError(filepath.ToSlash(filepath.Dir(a.Path)), "directory", err)
		}
	}
	// A replaced file keeps its mode; a reader sees the old content or the
	// new, never half.
	if err := atomicfile.WriteFileIn(w.root, p, append(old, a.Content...), 0o644, atomicfile.KeepMode()); err != nil {
		return "", fsError(a.Path, "file", err)
	}
	switch {
	case a.Append && existed:
		return fmt.Sprintf("appended %d bytes to %s (now %d bytes)", len(a.Content), a.Path, len(old)+len(a.Content)), nil
	case existed:
		return fmt.Sprintf("wrote %d bytes to %s (replaced its previous %d bytes)", len(a.Content), a.Path, fi.Size()), nil
	}
	return fmt.Sprintf("wrote %d bytes to %s (new file)", len(a.Content), a.Path), nil
}
