package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree makes the files and folders of paths (a trailing / makes a folder)
// under a temp dir, and returns it.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// userAt points the user's home (and so the credentials and the sandbox's
// cache) at dir.
func userAt(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CACHE_HOME", "")
}

func TestCarve_LeavesOutHiddenPaths(t *testing.T) {
	root := tree(t, "home/.ssh/id_rsa", "home/.config/gh/hosts.yml", "home/.config/git/config",
		"home/notes.md", "home/project/.hermes/hermes.toml", "home/project/main.go", "etc/hosts")
	hidden := []string{filepath.Join(root, "home/.ssh"), filepath.Join(root, "home/.config/gh"), filepath.Join(root, "home/project/.hermes")}
	if err := os.Symlink(filepath.Join(root, "home/.ssh"), filepath.Join(root, "home/ssh-link")); err != nil {
		t.Fatal(err)
	}
	rules := carve([]grant{{path: root}, {path: filepath.Join(root, "home/project"), write: true}}, hidden, false)
	got := map[string]string{}
	for _, r := range rules {
		kind := "read"
		switch {
		case r.list:
			kind = "list"
		case r.write:
			kind = "write"
		}
		rel, _ := filepath.Rel(root, r.path)
		got[filepath.ToSlash(rel)+"|"+kind] = ""
	}
	for _, want := range []string{
		".|list", "home|list", "home/.config|list", "home/.config/git|read", "home/notes.md|read", "etc|read",
		"home/project|list", "home/project|write" /* no: split */, "home/project/main.go|read", "home/project/main.go|write",
	} {
		if want == "home/project|write" {
			continue // the workspace holds the hidden .hermes: only its entries are granted
		}
		if _, ok := got[want]; !ok {
			t.Errorf("no rule %s in %v", want, keys(got))
		}
	}
	for k := range got {
		for _, never := range []string{".ssh", "gh", ".hermes", "ssh-link"} {
			if strings.Contains(k, never) {
				t.Errorf("a rule grants %s", k)
			}
		}
	}
	if _, ok := got["home/project|write"]; ok {
		t.Error("the workspace that holds the Hermes home is granted whole")
	}
	// Unlisted: the folders that hold hidden paths get no rule at all.
	for _, r := range carve([]grant{{path: root}}, hidden, true) {
		if r.list {
			t.Errorf("unlisted carve lists %s", r.path)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestConceals_TheNearestFolderWins(t *testing.T) {
	root := tree(t, "u/.hermes/hermes.toml", "u/.hermes/bot/workspaces/wecom/alice/a.txt",
		"u/.hermes/bot/workspaces/wecom/bob/b.txt", "u/.ssh/id_rsa", "u/work/.hermes/x", "u/work/main.go")
	userAt(t, filepath.Join(root, "u"))
	home := filepath.Join(root, "u", ".hermes")
	alice := Policy{Mode: Workspace, Home: home, Workspace: filepath.Join(home, "bot/workspaces/wecom/alice"),
		Hidden: []string{filepath.Join(home, "bot/workspaces")}}
	desk := Policy{Mode: Workspace, Home: home, Workspace: filepath.Join(root, "u")}
	for _, tt := range []struct {
		p    Policy
		path string
		want bool
	}{
		{alice, "u/.hermes/bot/workspaces/wecom/alice/a.txt", false},
		{alice, "u/.hermes/bot/workspaces/wecom/bob/b.txt", true},
		{alice, "u/.hermes/hermes.toml", true},
		{desk, "u/.hermes/hermes.toml", true},
		{desk, "u/.ssh/id_rsa", true},
		{desk, "u/work/main.go", false},
		{desk, "u/work/.hermes/x", false}, // only the Hermes home is hidden, not every .hermes
	} {
		if got := tt.p.Conceals(filepath.Join(root, tt.path)); got != tt.want {
			t.Errorf("Conceals(%s) = %v for the workspace %s", tt.path, got, tt.p.Workspace)
		}
	}
	// A symlink into a hidden path is hidden too.
	link := filepath.Join(root, "u/work/key")
	if err := os.Symlink(filepath.Join(root, "u/.ssh/id_rsa"), link); err != nil {
		t.Fatal(err)
	}
	if !desk.Conceals(link) {
		t.Error("a symlink to ~/.ssh/id_rsa is not hidden")
	}
}

func TestHiddenPaths_CredentialsAndConfig(t *testing.T) {
	u := tree(t, ".ssh/", ".aws/credentials", ".docker/config.json", ".mozilla/", "real-kube/config")
	userAt(t, u)
	if err := os.Symlink(filepath.Join(u, "real-kube"), filepath.Join(u, ".kube")); err != nil {
		t.Fatal(err)
	}
	hidden := Policy{Home: "/srv/hermes", Hidden: []string{"~/secrets", "/data/private"}}.HiddenPaths()
	for _, want := range []string{
		"/srv/hermes", filepath.Join(u, ".ssh"), filepath.Join(u, ".aws"), filepath.Join(u, ".docker/config.json"),
		filepath.Join(u, ".netrc"), filepath.Join(u, ".config/gcloud"), filepath.Join(u, ".mozilla"),
		filepath.Join(u, "real-kube"), // what ~/.kube points to
		filepath.Join(u, "secrets"), "/data/private", root(),
	} {
		if !slices.Contains(hidden, want) {
			t.Errorf("%s is not hidden: %v", want, hidden)
		}
	}
}

func TestPathsIn_ErrorsOfCommonPrograms(t *testing.T) {
	for line, want := range map[string][]string{
		"/usr/bin/bash: line 1: ../out.txt: Permission denied":                               {"../out.txt"},
		"cat: /home/u/.ssh/id_rsa: Permission denied":                                        {"/home/u/.ssh/id_rsa"},
		"cat: key: Permission denied":                                                        {"key"},
		"touch: cannot touch '/etc/x': Permission denied":                                    {"/etc/x"},
		"mkdir: cannot create directory ‘/root/d’: Permission denied":                        {"/root/d"},
		"PermissionError: [Errno 13] Permission denied: '/home/u/x.txt'":                     {"/home/u/x.txt"},
		"open /home/u/x: permission denied":                                                  {"/home/u/x"},
		"ln: failed to create hard link 'h' => '/home/u/.ssh/id': Invalid cross-device link": {"/home/u/.ssh/id"},
		"Error: EACCES: permission denied, open '/usr/lib/node_modules/x/package.json'":      {"/usr/lib/node_modules/x/package.json"},
	} {
		if got := pathsIn(line); !slices.Equal(got, want) {
			t.Errorf("pathsIn(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestSeatbeltProfile(t *testing.T) {
	u := tree(t, ".ssh/", "work/")
	userAt(t, u)
	home := filepath.Join(u, ".hermes")
	p := Policy{Mode: Workspace, Workspace: filepath.Join(u, "work"), Home: home, Writable: []string{"~/.cache/go-build"}}
	prof := seatbeltProfile(p, "/private/tmp/x", "/cache")
	for _, want := range []string{
		"(deny default)",
		"(allow file-read*)",
		`(deny file-read* file-write* (subpath "` + filepath.Join(u, ".ssh") + `"))`,
		`(deny file-read* file-write* (subpath "` + home + `"))`,
		`(allow file-read* file-write* (subpath "` + filepath.Join(u, "work") + `"))`,
		`(allow file-read* file-write* (subpath "/private/tmp/x"))`,
		`(allow file-read* file-write* (subpath "` + filepath.Join(u, ".cache/go-build") + `"))`,
		`(allow file-read* file-write* (literal "/dev/null"))`,
		"(allow signal (target same-sandbox))",
	} {
		if !strings.Contains(prof, want) {
			t.Errorf("the profile lacks %s:\n%s", want, prof)
		}
	}
	for _, never := range []string{"(allow network", "com.apple.SecurityServer", "com.apple.dnssd.service"} {
		if strings.Contains(prof, never) {
			t.Errorf("without network the profile holds %s", never)
		}
	}
	// The deeper rule comes later, so it wins: the workspace inside a hidden
	// folder is writable, the Hermes home inside the workspace is not.
	inner := Policy{Mode: Workspace, Workspace: u, Home: home}
	prof = seatbeltProfile(inner, "/t", "/c")
	if strings.Index(prof, `(allow file-read* file-write* (subpath "`+u+`"))`) > strings.Index(prof, `(deny file-read* file-write* (subpath "`+home+`"))`) {
		t.Errorf("the workspace's rule comes after the Hermes home's:\n%s", prof)
	}
	if prof := seatbeltProfile(Policy{Mode: ReadOnly, Network: true, Workspace: "/w"}, "/t", "/c"); !strings.Contains(prof, "(allow network*)") || strings.Contains(prof, `(subpath "/w")`) {
		t.Errorf("read-only with network:\n%s", prof)
	}
	if got := quoteSBPL(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf("quoteSBPL = %s", got)
	}
}

// Caches the sandbox cannot write go to its own; one the user made
// writable stays the user's.
func TestCacheEnv(t *testing.T) {
	u := t.TempDir()
	userAt(t, u)
	ws := filepath.Join(u, "ws")
	for _, tt := range []struct {
		name     string
		writable []string
		env      []string
		want     []string
	}{
		{"neither writable", nil, nil, []string{"XDG_CACHE_HOME=/c", "GOCACHE=/c/go-build"}},
		{"the Go cache writable", []string{"~/.cache/go-build"}, nil, []string{"XDG_CACHE_HOME=/c", "GOCACHE=" + filepath.Join(u, ".cache/go-build")}},
		{"a GOCACHE of the user's, writable", []string{"/gocache"}, []string{"GOCACHE=/gocache"}, []string{"XDG_CACHE_HOME=/c"}},
		{"all the user's caches writable", []string{"~/.cache"}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Policy{Mode: Workspace, Workspace: ws, Writable: tt.writable}.cacheEnv(tt.env, "/c")
			if !slices.Equal(got, tt.want) {
				t.Fatalf("cacheEnv = %q, want %q", got, tt.want)
			}
		})
	}
}

// Enforced, which a policy's check of each call asks, is Status's Enforced
// for every mode, on every system.
func TestEnforced_IsStatusEnforced(t *testing.T) {
	for _, m := range []Mode{"", Off, Workspace, ReadOnly} {
		p := Policy{Mode: m}
		if got, want := p.Enforced(), p.Status().Enforced; got != want {
			t.Errorf("mode %q: Enforced() = %v, Status().Enforced = %v", m, got, want)
		}
	}
}
