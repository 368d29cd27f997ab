// Package sandbox runs the processes of tools (execute_command, command
// skills, MCP servers) inside the operating system's sandbox, so that a
// command the model wrote can do no more than the run allows: read the
// system and the user's files but not their secrets, write only in the
// workspace and a private temp folder, reach no network, and leave nothing
// running behind it.
//
// On Linux the sandbox is the kernel's Landlock (files, TCP, signals and
// abstract sockets) and a seccomp filter (sockets, namespaces, mounts,
// tracing, keyrings, io_uring), both applied to a dedicated, locked thread
// of Hermes that then starts the command: the command inherits them, Hermes
// does not. Each command gets a session of its own that no process inside
// can leave, and the whole session is killed when the command ends. On
// macOS the same rules are a Seatbelt profile for sandbox-exec. Windows has
// none yet: its processes run as the user, and Status says so.
package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Mode is how much a sandboxed process may write.
type Mode string

const (
	// Workspace reads the system and the user's files and writes the workspace.
	Workspace Mode = "workspace"
	// ReadOnly reads the same and writes nothing but the private temp folder.
	ReadOnly Mode = "read-only"
	// Off is no sandbox: the process can do what the user can.
	Off Mode = "off"
)

// Policy is what the processes of one tool call may do.
type Policy struct {
	Mode Mode
	// Network lets them open sockets (TCP, UDP, Unix); without it they
	// can open none, loopback included.
	Network bool
	// Workspace is the folder they start in and, in Workspace mode, write.
	Workspace string
	// Writable are more folders they may write, in either mode.
	Writable []string
	// Home is the Hermes home: its config, lock, store and logs are never
	// readable.
	Home string
	// Hidden are more paths they may not read (sandbox_hidden, the other
	// chat users' workspaces).
	Hidden []string
	// Readable are folders they may read although a hidden path holds
	// them: a skill's own folder in the Hermes home.
	Readable []string
	// Isolated is a process of one of many people's (the bot's chat
	// users): the names in hidden paths cannot be listed either, at the
	// cost of listing the folders that hold them (see carve), so no one
	// learns the others' ids from their workspaces' names; and its build
	// cache is its workspace's alone, so no one plants a compiled object
	// for another's build.
	Isolated bool
}

// Status says whether the processes of a policy run confined, and how.
type Status struct {
	Mode     Mode
	Network  bool
	Enforced bool
	// How names the mechanisms in force ("Landlock ABI 7, seccomp").
	How string
	// Gaps are what this machine's sandbox cannot stop, in words.
	Gaps []string
	// Why says why processes run unconfined when Enforced is false.
	Why string
}

// userHome is the user's home directory, or "" when it is unknown.
func userHome() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return h
}

// credentials are the places under a home directory that hold the user's
// keys and tokens: never readable from the sandbox, whatever the config says.
var credentials = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube",
	".docker/config.json", ".netrc", ".git-credentials", ".config/gh", ".config/hub",
	".pypirc", ".cargo/credentials", ".cargo/credentials.toml", ".password-store",
	".local/share/keyrings", ".terraform.d/credentials.tfrc.json",
	// Browser profiles: cookies and saved passwords.
	".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/vivaldi", ".config/opera", "snap/firefox", "snap/chromium",
	".var/app/org.mozilla.firefox", ".var/app/com.google.Chrome", ".var/app/org.chromium.Chromium",
	// macOS keeps them under Library.
	"Library/Keychains", "Library/Cookies", "Library/Safari",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Application Support/BraveSoftware", "Library/Application Support/Microsoft Edge",
}

// HiddenPaths are the paths no process of p may read: the Hermes home, the
// places of credentials under the user's home, p's own Hidden, and the
// folders where other sandboxes keep their temp files and caches. Each is
// absolute and clean; a symlink is listed with what it points to.
func (p Policy) HiddenPaths() []string {
	var out []string
	add := func(path string) {
		if path == "" {
			return
		}
		path = filepath.Clean(path)
		out = append(out, path)
		// Most of these do not exist: one Lstat settles them.
		if _, err := os.Lstat(path); err != nil {
			return
		}
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			out = append(out, real)
		}
	}
	add(p.Home)
	if home := userHome(); home != "" {
		for _, c := range credentials {
			add(filepath.Join(home, filepath.FromSlash(c)))
		}
	}
	for _, h := range p.Hidden {
		add(expandHome(h))
	}
	add(root())
	slices.Sort(out)
	return slices.Compact(out)
}

// expandHome turns a leading "~/" into the user's home directory.
func expandHome(p string) string {
	if p == "~" {
		return userHome()
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if h := userHome(); h != "" {
			return filepath.Join(h, rest)
		}
	}
	return p
}

// Conceals reports whether the processes of p may not read path: the
// nearest folder that holds it, among the hidden paths and the folders p
// lets them write, is a hidden one (a tie goes to hidden). So the Hermes
// home inside a workspace stays hidden, and a chat user's workspace inside
// the hidden home is theirs. Symlinks in path are resolved first.
func (p Policy) Conceals(path string) bool {
	return concealed(p.HiddenPaths(), p.granted(), path)
}

// Concealer is Conceals for many paths that hold no symlink (resolved
// already): the hidden paths are found once.
func (p Policy) Concealer() func(path string) bool {
	hidden, granted := p.HiddenPaths(), p.granted()
	return func(path string) bool {
		path = filepath.Clean(path)
		h := nearest(hidden, path)
		return h >= 0 && h >= nearest(granted, path)
	}
}

// granted are the folders p lets its processes write, besides their own
// temp folder and cache.
func (p Policy) granted() []string {
	var out []string
	if p.Workspace != "" {
		out = append(out, filepath.Clean(p.Workspace))
		if real, err := filepath.EvalSymlinks(p.Workspace); err == nil {
			out = append(out, real)
		}
	}
	for _, w := range p.Writable {
		out = append(out, filepath.Clean(expandHome(w)))
	}
	return out
}

func concealed(hidden, granted []string, path string) bool {
	path = filepath.Clean(path)
	candidates := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		candidates = append(candidates, real)
	}
	for _, c := range candidates {
		h := nearest(hidden, c)
		if h >= 0 && h >= nearest(granted, c) {
			return true
		}
	}
	return false
}

// nearest is the length of the longest of dirs that holds path, or -1.
func nearest(dirs []string, path string) int {
	best := -1
	for _, d := range dirs {
		if len(d) > best && within(d, path) {
			best = len(d)
		}
	}
	return best
}

// within reports whether path is dir or lies below it; both are clean.
func within(dir, path string) bool {
	if !strings.HasPrefix(path, dir) {
		return false
	}
	rest := path[len(dir):]
	return rest == "" || rest[0] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator))
}
