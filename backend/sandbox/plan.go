package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
)

// A grant lets the sandbox's processes read, or read and write, a file or
// the tree below a folder.
type grant struct {
	path  string
	write bool
}

// A rule is a grant with the hidden paths carved out of it: a file or a
// folder that holds no hidden path, with whether it is a folder; or, with
// list, a folder that holds one, whose tree may only be listed.
type rule struct {
	path  string
	write bool
	dir   bool
	list  bool
}

// devices are the device files every process needs to write: the bit
// bucket, the sources of zeros and randomness, and terminals.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}

// deviceDirs are device folders processes write: pseudo-terminals, and the
// shared memory of POSIX semaphores (Python's multiprocessing), which holds
// no file of the user's.
var deviceDirs = []string{"/dev/pts", "/dev/shm"}

// grants are what p's processes may reach, with tmp and cache their own
// temp folder and cache: the whole file system to read; the workspace (in
// Workspace mode), tmp, cache and p.Writable to write. A writable folder
// the user listed that lies in a hidden path stays hidden.
func (p Policy) grants(tmp, cache string, hidden []string) []grant {
	gs := []grant{{path: "/"}, {path: tmp, write: true}, {path: cache, write: true}}
	if p.Mode == Workspace && p.Workspace != "" {
		gs = append(gs, grant{path: p.Workspace, write: true})
	}
	for _, w := range p.Writable {
		w = filepath.Clean(expandHome(w))
		if !concealed(hidden, nil, w) {
			gs = append(gs, grant{path: w, write: true})
		}
	}
	for _, r := range p.Readable {
		gs = append(gs, grant{path: filepath.Clean(r)})
	}
	for _, d := range append(slices.Clone(devices), deviceDirs...) {
		gs = append(gs, grant{path: d, write: true})
	}
	return gs
}

// carve turns grants into rules that leave out every hidden path: a grant
// that holds a hidden path is replaced by grants of its entries, except
// the hidden one and symlinks (a rule on a symlink would grant what it
// points to), down to the folders that hold none. A folder so split may
// still be listed, and with it the names in its tree, hidden ones too
// (Landlock grants listing a tree, not one folder); no file in a hidden
// path can be read, and nothing can be made directly in such a folder
// (making ~/.ssh/authorized_keys must stay out of reach). A hidden path
// above a grant does not take it back: the nearest wins, so a chat user's
// workspace in the hidden Hermes home is writable, the rest of the home
// not. Entries made after carve are not granted until the next command.
// With unlisted, split folders get no rule at all.
func carve(grants []grant, hidden []string, unlisted bool) []rule {
	var out []rule
	var walk func(path string, dir, write bool, inside []string)
	walk = func(path string, dir, write bool, inside []string) {
		var below []string
		for _, h := range inside {
			if h == path {
				return
			}
			if within(path, h) {
				below = append(below, h)
			}
		}
		if len(below) == 0 || !dir {
			out = append(out, rule{path: path, write: write, dir: dir})
			return
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return
		}
		if !unlisted {
			out = append(out, rule{path: path, dir: true, list: true})
		}
		for _, e := range entries {
			if e.Type()&os.ModeSymlink != 0 {
				continue
			}
			walk(filepath.Join(path, e.Name()), e.IsDir(), write, below)
		}
	}
	for _, g := range grants {
		fi, err := os.Stat(g.path)
		if err != nil {
			continue // missing or unreachable: nothing to grant
		}
		walk(filepath.Clean(g.path), fi.IsDir(), g.write, hidden)
	}
	return out
}

// root is the folder of every sandbox's temp folders and caches, hidden
// from all of them: one chat user's commands cannot read another's temp
// files nor plant files in another's build cache. It is the user's cache
// folder rather than /tmp, whose many entries would each need a rule.
func root() string {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "hermes-sandbox")
	}
	return filepath.Join(os.TempDir(), "hermes-sandbox")
}

// tempRoot holds each command's private temp folder, removed when it ends.
func tempRoot() string { return filepath.Join(root(), "tmp") }

// cacheRoot holds the caches of sandboxed commands, kept between them:
// build caches (GOCACHE, XDG_CACHE_HOME) that the user's own are not, since
// a command could plant a compiled object there for the user's next build.
func cacheRoot() string { return filepath.Join(root(), "cache") }

// cacheFor is the cache folder of p's commands: one for all the user's
// runs, so that only the first build in the sandbox starts cold; one per
// workspace for an isolated process.
func cacheFor(p Policy) string {
	if !p.Isolated {
		return filepath.Join(cacheRoot(), "shared")
	}
	sum := sha256.Sum256([]byte(filepath.Clean(p.Workspace)))
	return filepath.Join(cacheRoot(), hex.EncodeToString(sum[:8]))
}

func isDevice(path string) bool {
	for _, d := range append(devices[:len(devices):len(devices)], deviceDirs...) {
		if path == d {
			return true
		}
	}
	return false
}
