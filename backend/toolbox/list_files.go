package toolbox

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// maxListEntries caps a listing so that one call cannot flood the context.
const maxListEntries = 1000

// unexpanded directories are listed but not walked into by a recursive
// listing: they are large and rarely what the task is about.
var unexpanded = []string{".git", "node_modules"}

type listFilesArgs struct {
	Path      string `json:"path" default:"." description:"Directory to list, relative to the workspace root; \".\" is the root."`
	Recursive bool   `json:"recursive" default:"false" description:"List the whole tree below the directory instead of its direct entries only."`
}

//go:embed list_files.md
var listFilesMD string

func init() {
	Register(Builtin{Skill: SkillFiles, Make: func(w With) (Tool, bool) { return listFilesTool(w.Environ), true }})
}

func listFilesTool(environ *Environ) Tool {
	return Func("list_files", listFilesMD, RiskRead, func(ctx context.Context, env Env, a listFilesArgs) (string, error) {
		return listFiles(env, environ, a)
	})
}

func listFiles(env Env, environ *Environ, a listFilesArgs) (string, error) {
	w, err := openWorkspace(env, environ)
	if err != nil {
		return "", err
	}
	defer w.Close()
	dir, err := w.resolve(a.Path)
	if err == nil && w.hidden(filepath.Join(w.real, dir)) {
		err = errHidden
	}
	if err != nil {
		return "", fsError(a.Path, "directory", err)
	}
	fi, err := w.root.Stat(dir)
	if err != nil {
		return "", fsError(a.Path, "directory", err)
	}
	if !fi.IsDir() {
		return fmt.Sprintf("%s is a file, not a directory:\n%s", a.Path, entryLine(dir, fs.FileInfoToDirEntry(fi), w, false)), nil
	}

	var lines []string
	omitted := 0
	add := func(p string, d fs.DirEntry) {
		if len(lines) < maxListEntries {
			lines = append(lines, entryLine(p, d, w, a.Recursive))
		} else {
			omitted++
		}
	}
	if a.Recursive {
		err = fs.WalkDir(w.root.FS(), filepath.ToSlash(dir), func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil && p == filepath.ToSlash(dir):
				return err
			case err != nil:
				// An unreadable subdirectory is listed but not entered.
				return nil
			case p == filepath.ToSlash(dir):
				return nil
			}
			add(p, d)
			if d.IsDir() && (slices.Contains(unexpanded, d.Name()) || w.hidden(filepath.Join(w.real, filepath.FromSlash(p)))) {
				return fs.SkipDir
			}
			return nil
		})
	} else {
		var entries []fs.DirEntry
		entries, err = fs.ReadDir(w.root.FS(), filepath.ToSlash(dir))
		for _, d := range entries {
			add(path.Join(filepath.ToSlash(dir), d.Name()), d)
		}
	}
	if err != nil {
		return "", fsError(a.Path, "directory", err)
	}

	where := a.Path
	if dir == "." {
		where = "the workspace root"
	}
	if len(lines) == 0 {
		return fmt.Sprintf("%s is empty.", where), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s:\n", count(len(lines)+omitted, "entry", "entries"), where)
	b.WriteString(strings.Join(lines, "\n"))
	if omitted > 0 {
		fmt.Fprintf(&b, "\n… %s not shown; list a subdirectory to see them.", count(omitted, "more entry", "more entries"))
	}
	return b.String(), nil
}

// entryLine describes one entry: "docs/", "a.md (532 bytes)", "b -> a.md".
func entryLine(p string, d fs.DirEntry, w *workspace, recursive bool) string {
	p = filepath.ToSlash(p)
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		target, err := w.root.Readlink(p)
		if err != nil {
			return p + " (symbolic link)"
		}
		return fmt.Sprintf("%s -> %s (symbolic link)", p, target)
	case d.IsDir():
		if w.hidden(filepath.Join(w.real, filepath.FromSlash(p))) {
			return p + "/ (hidden from the agent)"
		}
		if recursive && slices.Contains(unexpanded, d.Name()) {
			return p + "/ (not expanded)"
		}
		return p + "/"
	}
	info, err := d.Info()
	if err != nil {
		return p // removed while listing
	}
	if !info.Mode().IsRegular() {
		return fmt.Sprintf("%s (%s)", p, info.Mode().Type())
	}
	return fmt.Sprintf("%s (%d bytes)", p, info.Size())
}

// count writes n with the singular or plural noun.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
