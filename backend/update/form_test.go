package update

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRoot is a file system root in a temp dir with a dpkg database whose
// packages list the given files, and each of those files.
func fakeRoot(t *testing.T, packages map[string][]string) string {
	t.Helper()
	root := t.TempDir()
	info := filepath.Join(root, dpkgInfo)
	if err := os.MkdirAll(info, 0o755); err != nil {
		t.Fatal(err)
	}
	for pkg, files := range packages {
		var list strings.Builder
		for _, f := range files {
			list.WriteString(filepath.Dir(f) + "\n" + f + "\n")
		}
		writeFile(t, filepath.Join(info, pkg+".list"), "/.\n/usr\n"+list.String())
	}
	return root
}

// at makes the file (or, with a target, the symlink) at the slash path p
// under root and returns its path.
func at(t *testing.T, root, p, target string) string {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if target != "" {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	writeFile(t, path, "a hermes")
	return path
}

func TestDetectForm(t *testing.T) {
	t.Run("package", func(t *testing.T) {
		root := fakeRoot(t, map[string][]string{
			"coreutils":   {"/usr/bin/ls"},
			"hermes":      {"/usr/bin/hermes", "/usr/lib/hermes/hermes-window"},
			"hermes-fork": {"/opt/hermes-fork/hermes"},
			"merged":      {"/bin/merged"},
			"linked":      {"/usr/lib/linked/linked", "/usr/bin/linked"},
			"liar":        {"/usr/local/bin/hermes"},
		})
		tests := []struct {
			name, exe, link string
			want            Form
		}{
			{"a package named hermes lists it", at(t, root, "/usr/bin/hermes", ""), "", FormPackage},
			{"the window build the .deb installs beside it", at(t, root, "/usr/lib/hermes/hermes-window", ""), "", FormPackage},
			{"another package lists it", at(t, root, "/opt/hermes-fork/hermes", ""), "", FormPackage},
			{"listed under its merged-/usr alias", at(t, root, "/usr/bin/merged", ""), "", FormPackage},
			{"started through a listed link", at(t, root, "/usr/lib/linked/other", ""), filepath.Join(root, "usr/bin/linked"), FormPackage},
			{"in /usr/bin but no package's", at(t, root, "/usr/bin/hermes2", ""), "", FormBinary},
			{"in /usr/local, which no package owns", at(t, root, "/usr/local/bin/hermes", ""), "", FormBinary},
			{"in a home", at(t, root, "/home/me/bin/hermes", ""), "", FormBinary},
		}
		for _, tt := range tests {
			if got := DetectForm(tt.exe, tt.link, "linux", root); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
			}
		}
		// The database is Linux's only.
		if got := DetectForm(filepath.Join(root, "usr/bin/hermes"), "", "darwin", root); got != FormBinary {
			t.Errorf("on macOS: %s, want binary", got)
		}
	})
	t.Run("bundle", func(t *testing.T) {
		dir := t.TempDir()
		for exe, want := range map[string]Form{
			"Hermes.app/Contents/MacOS/hermes":    FormBundle,
			"My Hermes.APP/Contents/MacOS/hermes": FormBundle,
			"Hermes/Contents/MacOS/hermes":        FormBinary,
			"Hermes.app/Contents/hermes":          FormBinary,
			".app/Contents/MacOS/hermes":          FormBinary,
		} {
			if got := DetectForm(filepath.Join(dir, filepath.FromSlash(exe)), "", "darwin", ""); got != want {
				t.Errorf("%s: %s, want %s", exe, got, want)
			}
		}
	})
	t.Run("installer", func(t *testing.T) {
		installed, bare := t.TempDir(), t.TempDir()
		writeFile(t, filepath.Join(installed, "hermes.exe"), "x")
		writeFile(t, filepath.Join(installed, "uninstall.exe"), "x")
		writeFile(t, filepath.Join(bare, "hermes.exe"), "x")
		if got := DetectForm(filepath.Join(installed, "hermes.exe"), "", "windows", ""); got != FormInstaller {
			t.Errorf("beside its uninstaller: %s, want installer", got)
		}
		if got := DetectForm(filepath.Join(bare, "hermes.exe"), "", "windows", ""); got != FormBinary {
			t.Errorf("alone: %s, want binary", got)
		}
	})
}

// An Updater reads the form once, from the root it is given, and a binary
// in a temp dir never reads a dpkg database.
func TestUpdater_Form(t *testing.T) {
	root := fakeRoot(t, map[string][]string{"hermes": {"/usr/bin/hermes"}})
	exe := at(t, root, "/usr/bin/hermes", "")
	link := at(t, root, "/usr/local/bin/hermes", exe)
	u, err := New(Options{Home: t.TempDir(), Exe: link, Root: root, Platform: "linux/amd64", PublicKey: testPub.String()})
	if err != nil {
		t.Fatal(err)
	}
	if u.Exe() != exe || u.Form() != FormPackage || u.Path() != exe {
		t.Fatalf("exe %s form %s path %s", u.Exe(), u.Form(), u.Path())
	}
	// Told, it does not look.
	u, err = New(Options{Home: t.TempDir(), Exe: exe, Root: root, Form: FormBinary, Platform: "linux/amd64", PublicKey: testPub.String()})
	if err != nil || u.Form() != FormBinary {
		t.Fatalf("form %s: %v", u.Form(), err)
	}
	if _, err := New(Options{Home: t.TempDir(), Exe: exe, Form: "snap", PublicKey: testPub.String()}); err == nil {
		t.Fatal("an unknown form was accepted")
	}
}

func TestPackageCommands(t *testing.T) {
	apt, dpkg := PackageCommands("/home/me/.hermes/updates/1.2.0/hermes_1.2.0_amd64.deb")
	if apt != "sudo apt install /home/me/.hermes/updates/1.2.0/hermes_1.2.0_amd64.deb" ||
		dpkg != "sudo dpkg -i /home/me/.hermes/updates/1.2.0/hermes_1.2.0_amd64.deb" {
		t.Fatalf("%q %q", apt, dpkg)
	}
	if apt, _ := PackageCommands("/home/Jo's files/h.deb"); apt != `sudo apt install '/home/Jo'\''s files/h.deb'` {
		t.Fatalf("quoted: %q", apt)
	}
}

// A headless install takes the release's headless build where there is
// one, and the binary where the platform has no other.
func TestRelease_HeadlessArtefact(t *testing.T) {
	var rel Release
	rel.Put("linux/amd64", Artefact{URL: "hermes-linux-amd64"})
	rel.Put("linux/amd64", Artefact{URL: "hermes-linux-amd64-headless", Form: FormHeadless})
	rel.Put("darwin/arm64", Artefact{URL: "hermes-darwin-arm64-headless"})
	for _, tt := range []struct {
		platform string
		form     Form
		want     string
	}{
		{"linux/amd64", FormHeadless, "hermes-linux-amd64-headless"},
		{"linux/amd64", FormBinary, "hermes-linux-amd64"},
		{"darwin/arm64", FormHeadless, "hermes-darwin-arm64-headless"},
	} {
		if a, ok := rel.Artefact(tt.platform, tt.form); !ok || a.URL != tt.want {
			t.Errorf("Artefact(%s, %s) = %q, %v; want %q", tt.platform, tt.form, a.URL, ok, tt.want)
		}
	}
	if _, ok := rel.Artefact("windows/amd64", FormHeadless); ok {
		t.Error("a platform without any build gave an artefact")
	}
	if f, ok := ParseForm("headless"); !ok || f != FormHeadless {
		t.Errorf("ParseForm(headless) = %s, %v", f, ok)
	}
}
