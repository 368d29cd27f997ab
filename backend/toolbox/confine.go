package toolbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symlinks followed in one path, as the kernel does.
const maxLinks = 40

// workspace is a run's workspace opened for one tool call. Every file
// operation goes through root, so that even a symlink swapped in between
// resolve and use cannot lead outside.
type workspace struct {
	root *os.Root
	dir  string // as the run gave it
	real string // dir with its own symlinks resolved
	// hidden reports whether a path without symlinks is one the run's
	// sandbox hides from commands, which the file tools refuse too.
	hidden func(path string) bool
}

// openFile opens the workspace and resolves the file at path in it,
// refused (with what the model should do) where the agent may not reach;
// the caller closes the workspace.
func openFile(env Env, environ *Environ, path string) (*workspace, string, error) {
	w, err := openWorkspace(env, environ)
	if err != nil {
		return nil, "", err
	}
	p, err := w.resolve(path)
	if err == nil {
		err = w.check(p)
	}
	if err != nil {
		_ = w.Close()
		return nil, "", fsError(path, "file", err)
	}
	return w, p, nil
}

func openWorkspace(env Env, environ *Environ) (*workspace, error) {
	unavailable := func(err error) error {
		return &toolError{err: fmt.Errorf("%w: %w", ErrNoWorkspace, err), msg: fmt.Sprintf(
			"the workspace %q cannot be opened, so no file can be read or written; say so in your answer, since the user must fix the run's workspace", env.Workspace)}
	}
	if env.Workspace == "" || !filepath.IsAbs(env.Workspace) {
		return nil, unavailable(errors.New("the workspace must be an absolute path"))
	}
	root, err := os.OpenRoot(env.Workspace)
	if err != nil {
		return nil, unavailable(err)
	}
	real, err := filepath.EvalSymlinks(env.Workspace)
	if err != nil {
		_ = root.Close()
		return nil, unavailable(err)
	}
	return &workspace{root: root, dir: filepath.Clean(env.Workspace), real: real, hidden: environ.Policy(env, Asks{}).Concealer()}, nil
}

// check refuses rel, resolved in the workspace, when the sandbox hides it
// (the Hermes home in a workspace that holds it, a place of credentials),
// and a file with more than one hard link, which may be a file outside the
// workspace under a name inside it.
func (w *workspace) check(rel string) error {
	if w.hidden(filepath.Join(w.real, rel)) {
		return errHidden
	}
	fi, err := w.root.Lstat(rel)
	if err == nil && fi.Mode().IsRegular() && hardLinks(fi) > 1 {
		return &linkedError{links: hardLinks(fi)}
	}
	return nil
}

func (w *workspace) Close() error { return w.root.Close() }

// resolve turns a path as the model wrote it (relative to the workspace, or
// absolute inside it) into a path relative to the root that holds no
// symlink, following each symlink on the way. It fails with errOutside when
// ".." or a symlink, existing or dangling, leads out of the workspace.
func (w *workspace) resolve(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", Errorf("the path %q contains a NUL byte, which no file name can hold; use a plain path inside the workspace", p)
	}
	if filepath.IsAbs(p) {
		rel, ok := w.inside(p)
		if !ok {
			return "", errOutside
		}
		p = rel
	}
	parts := splitPath(p)
	var done []string
	links := 0
	for len(parts) > 0 {
		part := parts[0]
		parts = parts[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", errOutside
			}
			done = done[:len(done)-1]
			continue
		}
		candidate := filepath.Join(append(done, part)...)
		fi, err := w.root.Lstat(candidate)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Nothing below a missing name can be a symlink.
			done = append(done, part)
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			done = append(done, part)
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("resolve %s: %w", p, syscall.ELOOP)
		}
		target, err := w.root.Readlink(candidate)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			rel, ok := w.inside(target)
			if !ok {
				return "", errOutside
			}
			done, target = nil, rel
		}
		parts = append(splitPath(target), parts...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return filepath.Join(done...), nil
}

// inside returns abs relative to the workspace, if it lies within it as the
// run named it or as it is on disk.
func (w *workspace) inside(abs string) (string, bool) {
	abs = filepath.Clean(abs)
	for _, base := range []string{w.dir, w.real} {
		if rel, err := filepath.Rel(base, abs); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return rel, true
		}
	}
	return "", false
}

func splitPath(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

// fsError turns a failed file operation on path p into a sentence for the
// model with a next step; what is names the thing sought ("file",
// "directory").
func fsError(p, what string, err error) error {
	var te *toolError
	if errors.As(err, &te) {
		return err
	}
	var msg string
	var linked *linkedError
	switch {
	case errors.Is(err, errOutside):
		msg = fmt.Sprintf("%s is outside the workspace; use a path inside the workspace, relative to its root (such as notes/todo.md), and call list_files to see what exists", p)
	case errors.Is(err, errHidden):
		msg = fmt.Sprintf("%s is outside what the agent may read: the Hermes home, a place of credentials or a path the user hid; do the task without it", p)
	case errors.As(err, &linked):
		msg = fmt.Sprintf("%s has %d hard links: the same file lies elsewhere too, maybe outside the workspace, so the file tools do not touch it; if the task needs it, ask the user to copy it into the workspace", p, linked.links)
	case errors.Is(err, fs.ErrNotExist):
		msg = fmt.Sprintf("no such %s %s in the workspace; call list_files to see what exists", what, p)
	case errors.Is(err, fs.ErrPermission):
		msg = fmt.Sprintf("permission denied for %s; the user has not given access to it, so choose another path", p)
	case errors.Is(err, syscall.ENOTDIR):
		msg = fmt.Sprintf("%s: a part of the path is a file, not a directory; call list_files to check the path", p)
	case errors.Is(err, syscall.ELOOP):
		msg = fmt.Sprintf("%s: too many symbolic links (a link loop); choose another path", p)
	default:
		cause := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			cause = pe.Err
		}
		msg = fmt.Sprintf("could not access %s (%v); try again once, then choose another path", p, cause)
	}
	return &toolError{msg: msg, err: err}
}
