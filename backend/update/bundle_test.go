package update

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The macOS bundle's update runs here on a fake bundle: X.app whose
// Contents/MacOS/hermes is a tinyhermes, with an Info.plist, a resource and
// a framework whose symlinks must survive, all naming the version so a
// bundle made of two versions' files shows.

// makeBundle lays out the bundle app with b's tinyhermes as its executable
// and returns the executable's path.
func makeBundle(t *testing.T, app string, b build) string {
	t.Helper()
	c := filepath.Join(app, "Contents")
	lib := filepath.Join(c, "Frameworks", "Lib.framework")
	for _, d := range []string{filepath.Join(c, "MacOS"), filepath.Join(c, "Resources"), filepath.Join(lib, "Versions", "A")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(c, "Info.plist"), "<plist>"+b.version+"</plist>")
	writeFile(t, filepath.Join(c, "Resources", "hermes.icns"), "an icon")
	writeFile(t, filepath.Join(lib, "Versions", "A", "Lib"), "lib "+b.version)
	for link, target := range map[string]string{
		filepath.Join(lib, "Versions", "Current"): "A",
		filepath.Join(lib, "Lib"):                 "Versions/Current/Lib",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(c, "MacOS", "hermes")
	if err := copyFileSync(binary(t, b), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

// zipBundle zips the bundle at app as `ditto -c -k --keepParent` does:
// under its X.app folder, with Unix modes and symlinks.
func zipBundle(t *testing.T, app string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	parent := filepath.Dir(app)
	err := filepath.WalkDir(app, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(parent, p)
		h.Name = filepath.ToSlash(rel)
		var body []byte
		switch {
		case info.IsDir():
			h.Name += "/"
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			body = []byte(link)
		default:
			h.Method = zip.Deflate
			if body, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = fw.Write(body)
		return err
	})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// installBundle installs b as Hermes.app in a fresh folder, with a home.
func installBundle(t *testing.T, b build) (exe, home string) {
	t.Helper()
	dir := t.TempDir()
	exe = makeBundle(t, filepath.Join(dir, "Hermes.app"), b)
	home = filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "data.txt"), "original\n")
	return exe, home
}

// publishBundle serves release b.version with the zip of its bundle and,
// beside it, its bare binary, which a bundle install must not take.
func (s *feedServer) publishBundle(t *testing.T, b build) {
	t.Helper()
	app := filepath.Join(t.TempDir(), "Hermes.app")
	makeBundle(t, app, b)
	s.publishFiles(t, b.version,
		releaseFile{FormBundle, "Hermes-" + b.version + ".app.zip", zipBundle(t, app)},
		releaseFile{FormBinary, "hermes-" + b.version, readBinary(t, b)},
	)
}

// assertBundle checks that the bundle of exe is whole and all of version:
// the executable, the Info.plist and the framework through its symlinks.
func assertBundle(t *testing.T, exe, version string) {
	t.Helper()
	app := bundleOf(exe)
	if v := versionOf(t, exe); v != version {
		t.Fatalf("the bundle runs %s, want %s", v, version)
	}
	if got := readFile(t, filepath.Join(app, "Contents", "Info.plist")); got != "<plist>"+version+"</plist>" {
		t.Fatalf("Info.plist %q, want %s's", got, version)
	}
	if got := readFile(t, filepath.Join(app, "Contents", "Frameworks", "Lib.framework", "Lib")); got != "lib "+version {
		t.Fatalf("the framework through its symlinks: %q, want %s's", got, version)
	}
}

// assertNoBundleLeftovers checks that nothing of an update is left: no
// journal, no copy of the home, no bundle beside the installed one.
func assertNoBundleLeftovers(t *testing.T, u *Updater) {
	t.Helper()
	assertNoLeftovers(t, u)
	entries, err := os.ReadDir(filepath.Dir(u.Path()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "Hermes.app" && e.Name() != "home" {
			t.Fatalf("%s left beside the bundle", e.Name())
		}
	}
}

// withoutExchange makes the bundle's swaps take two renames, as on a file
// system that cannot exchange two names, for the rest of the test.
func withoutExchange(t *testing.T) {
	saved := osDirOps
	osDirOps.exchange = func(_, _ string) error { return errNoExchange }
	t.Cleanup(func() { osDirOps = saved })
}

var swapModes = []struct {
	name  string
	setup func(*testing.T)
}{
	{"exchange", func(*testing.T) {}},
	{"two renames", withoutExchange},
}

func TestBundle_UpdateRollbackClean(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	for _, mode := range swapModes {
		t.Run(mode.name, func(t *testing.T) {
			mode.setup(t)
			srv := newFeedServer(t)
			srv.publishBundle(t, newBuild)
			exe, home := installBundle(t, oldBuild)
			u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
			var steps []Step
			u.opts.OnStep = func(s Step) { steps = append(steps, s) }
			if u.Form() != FormBundle || u.Path() != filepath.Dir(filepath.Dir(filepath.Dir(exe))) {
				t.Fatalf("form %s path %s", u.Form(), u.Path())
			}

			if _, err := update(t.Context(), u); err != nil {
				t.Fatal(err)
			}
			assertBundle(t, exe, "1.1.0")
			if got := strings.Join(stepNames(steps), ","); got != "downloaded,staged,checked,swapped,healthy" {
				t.Fatalf("steps %s", got)
			}
			if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\nmigrated to 1.1.0\n" {
				t.Fatalf("the first start of 1.1.0 did not migrate: %q", data)
			}
			assertNoBundleLeftovers(t, u)

			v, err := u.Rollback(t.Context())
			if err != nil || v != "1.0.0" {
				t.Fatalf("rollback: %s %v", v, err)
			}
			assertBundle(t, exe, "1.0.0")
			if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\n" {
				t.Fatalf("rollback did not restore the migrated file: %q", data)
			}
			if v, err := u.Rollback(t.Context()); err != nil || v != "1.1.0" {
				t.Fatalf("second rollback: %s %v", v, err)
			}
			assertBundle(t, exe, "1.1.0")
			assertNoBundleLeftovers(t, u)

			if freed, err := u.Clean(); err != nil || freed == 0 {
				t.Fatalf("clean freed %d: %v", freed, err)
			}
			if !exists(filepath.Join(u.previousDir(), "Hermes.app", "Contents", "MacOS", "hermes")) {
				t.Fatal("clean removed the bundle kept for rollback")
			}
		})
	}
}

// A bundle that fails its check on the copy of the home is never swapped
// in; one that fails only once installed is swapped back out whole.
func TestBundle_FailedHealthRollsBack(t *testing.T) {
	buildAll(t, oldBuild, unhealthyBuild, stagedOnly)
	for _, mode := range swapModes {
		for _, tt := range []struct {
			name  string
			b     build
			steps string
		}{
			{"fails on the copy", unhealthyBuild, "downloaded,staged"},
			{"fails only once installed", stagedOnly, "downloaded,staged,checked,swapped,rolled_back"},
		} {
			t.Run(mode.name+"/"+tt.name, func(t *testing.T) {
				mode.setup(t)
				srv := newFeedServer(t)
				srv.publishBundle(t, tt.b)
				exe, home := installBundle(t, oldBuild)
				u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
				var steps []Step
				u.opts.OnStep = func(s Step) { steps = append(steps, s) }

				if _, err := update(t.Context(), u); !errors.Is(err, ErrHealth) {
					t.Fatalf("err = %v, want ErrHealth", err)
				}
				assertBundle(t, exe, "1.0.0")
				if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\n" {
					t.Fatalf("the migrated file was not restored: %q", data)
				}
				if got := strings.Join(stepNames(steps), ","); got != tt.steps {
					t.Fatalf("steps %s, want %s", got, tt.steps)
				}
				assertNoBundleLeftovers(t, u)
			})
		}
	}
}

// TestBundle_KilledAtEveryStep kills the updating process (SIGKILL) at each
// durable step and while each health check runs: the install must then be
// the old bundle or the new one, whole, and the next update must finish.
func TestBundle_KilledAtEveryStep(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	kills := []struct{ name, env string }{
		{"downloaded", "TINYHERMES_KILL_AT=" + string(StepDownloaded)},
		{"staged", "TINYHERMES_KILL_AT=" + string(StepStaged)},
		{"during the check of the staged bundle", "TINYHERMES_KILL_DURING=staged"},
		{"checked", "TINYHERMES_KILL_AT=" + string(StepChecked)},
		{"swapped", "TINYHERMES_KILL_AT=" + string(StepSwapped)},
		{"during the check of the installed bundle", "TINYHERMES_KILL_DURING=installed"},
	}
	for _, k := range kills {
		t.Run(k.name, func(t *testing.T) {
			srv := newFeedServer(t)
			srv.publishBundle(t, newBuild)
			exe, home := installBundle(t, oldBuild)
			feed := srv.URL + "/feed.json"

			killedUpdate(t, exe, home, feed, k.env)
			v := versionOf(t, exe)
			if v != "1.0.0" && v != "1.1.0" {
				t.Fatalf("after the kill the bundle runs %q", v)
			}
			assertBundle(t, exe, v)
			out, err := exec.Command(exe, "update", "--home", home, "--feed", feed).CombinedOutput()
			if err != nil {
				t.Fatalf("the update after the kill failed: %v\n%s", err, out)
			}
			assertBundle(t, exe, "1.1.0")
			if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\nmigrated to 1.1.0\n" {
				t.Fatalf("migrations ran %q", data)
			}
			assertNoBundleLeftovers(t, newUpdater(t, exe, home, feed, "1.1.0"))
		})
	}
}

// Recover finds every state a kill can leave a swap in, whichever of the
// two bundles has which name, and ends with one whole bundle: the old one,
// or the new one once it passed its check in the home.
func TestBundle_RecoverInterruptedSwap(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	tests := []struct {
		name     string
		old, new string // where each bundle is: "app" (Hermes.app), "new" (.Hermes.app.new) or "old" (.Hermes.app.old)
		want     string
	}{
		{name: "before the swap, or undone by an exchange", old: "app", new: "new", want: "1.0.0"},
		{name: "between the two renames of the swap or of its undo", old: "old", new: "new", want: "1.0.0"},
		{name: "after the exchange", old: "new", new: "app", want: "1.1.0"},
		{name: "after the two renames", old: "old", new: "app", want: "1.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			app := filepath.Join(dir, "Hermes.app")
			place := map[string]string{"app": app, "new": besideBundle(app, ".new"), "old": besideBundle(app, ".old")}
			home := filepath.Join(dir, "home")
			if err := os.MkdirAll(home, 0o700); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(home, "data.txt"), "original\n")
			makeBundle(t, place[tt.old], oldBuild)
			newExe := makeBundle(t, place[tt.new], newBuild)
			sum, err := fileSHA256(newExe)
			if err != nil {
				t.Fatal(err)
			}
			exe := filepath.Join(app, "Contents", "MacOS", "hermes")
			u := newUpdater(t, exe, home, "", "1.0.0")
			j := journal{
				From: "1.0.0", To: "1.1.0", ToSHA256: sum, Exe: exe, Bundle: app,
				Staged: place["new"], Aside: place["old"], Previous: filepath.Join(u.previousDir(), "Hermes.app"),
			}
			if err := os.MkdirAll(u.dir(), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := writeJSON(u.journalPath(), j); err != nil {
				t.Fatal(err)
			}

			if err := u.Recover(t.Context()); err != nil {
				t.Fatal(err)
			}
			assertBundle(t, exe, tt.want)
			if u.Installed() != tt.want {
				t.Fatalf("installed %s, want %s", u.Installed(), tt.want)
			}
			assertNoBundleLeftovers(t, u)
		})
	}
}

// A rollback killed between its two renames (no journal covers it) leaves
// the bundle aside: the next start puts it back.
func TestBundle_TidyPutsBackAMovedBundle(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "Hermes.app")
	aside := besideBundle(app, ".old")
	makeBundle(t, aside, oldBuild)
	makeBundle(t, besideBundle(app, ".new"), newBuild)
	exe := filepath.Join(app, "Contents", "MacOS", "hermes")
	home := filepath.Join(dir, "home")
	u := newUpdater(t, exe, home, "", "1.0.0")
	if err := u.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	assertBundle(t, exe, "1.0.0")
	assertNoBundleLeftovers(t, u)
}

// A swap that takes two renames and whose second fails moves the old
// bundle back; a failed exchange changes nothing.
func TestSwapDirs_Failures(t *testing.T) {
	errInjected := errors.New("injected")
	for _, tt := range []struct {
		name string
		ops  func(n *int) dirOps
	}{
		{"second rename fails", func(n *int) dirOps {
			return dirOps{
				exchange: func(_, _ string) error { return errNoExchange },
				rename: func(a, b string) error {
					if *n++; *n == 2 {
						return errInjected
					}
					return os.Rename(a, b)
				},
			}
		}},
		{"exchange fails", func(*int) dirOps {
			return dirOps{exchange: func(_, _ string) error { return errInjected }, rename: os.Rename}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target, incoming, outgoing := filepath.Join(dir, "Hermes.app"), filepath.Join(dir, ".Hermes.app.new"), filepath.Join(dir, ".Hermes.app.old")
			for p, content := range map[string]string{target: "old", incoming: "new"} {
				if err := os.Mkdir(p, 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(p, "f"), content)
			}
			var n int
			if err := swapDirs(tt.ops(&n), incoming, target, outgoing); !errors.Is(err, errInjected) {
				t.Fatalf("err = %v", err)
			}
			if readFile(t, filepath.Join(target, "f")) != "old" || readFile(t, filepath.Join(incoming, "f")) != "new" || exists(outgoing) {
				t.Fatal("a failed swap left the bundles moved")
			}
		})
	}
}

// zipOf is a zip of the entries, name to content; a name ending in "@" is
// a symlink (without the "@") to its content.
func zipOf(t *testing.T, entries map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, content := range entries {
		h := &zip.FileHeader{Name: name}
		h.SetMode(0o755)
		if link, ok := strings.CutSuffix(name, "@"); ok {
			h.Name = link
			h.SetMode(fs.ModeSymlink | 0o777)
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bundle.zip")
	writeFile(t, path, buf.String())
	return path
}

func TestUnpackBundle(t *testing.T) {
	exeRel := filepath.Join("Contents", "MacOS", "hermes")
	refused := map[string]map[string]string{
		"an entry outside the bundle": {"Hermes.app/Contents/MacOS/hermes": "x", "Hermes.app/../evil": "x"},
		"a symlink out of it":         {"Hermes.app/Contents/MacOS/hermes": "x", "Hermes.app/Contents/etc@": "../../../etc"},
		"an absolute symlink":         {"Hermes.app/Contents/MacOS/hermes": "x", "Hermes.app/Contents/etc@": "/etc"},
		"two things at the top":       {"Hermes.app/Contents/MacOS/hermes": "x", "Other.app/Contents/MacOS/hermes": "x"},
		"no bundle at the top":        {"hermes/Contents/MacOS/hermes": "x"},
		"no executable":               {"Hermes.app/Contents/Info.plist": "x"},
	}
	for name, entries := range refused {
		dst := filepath.Join(t.TempDir(), "new.app")
		if err := unpackBundle(zipOf(t, entries), dst, exeRel); !errors.Is(err, errBundleLayout) {
			t.Errorf("%s: %v, want it refused", name, err)
		}
	}
	// Contents at the top, Finder's __MACOSX and ._ files skipped.
	dst := filepath.Join(t.TempDir(), "new.app")
	zipPath := zipOf(t, map[string]string{
		"Contents/MacOS/hermes":            "#!/bin/sh\n",
		"Contents/Frameworks/Current@":     "A",
		"Contents/Frameworks/A/lib":        "lib",
		"__MACOSX/Contents/MacOS/._hermes": "resource fork",
		"Contents/Resources/._hermes.icns": "resource fork",
	})
	if err := unpackBundle(zipPath, dst, exeRel); err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(dst, "Contents", "Frameworks", "Current", "lib")) != "lib" {
		t.Fatal("the symlink was not made")
	}
	if exists(filepath.Join(dst, "__MACOSX")) || exists(filepath.Join(dst, "Contents", "Resources", "._hermes.icns")) {
		t.Fatal("Finder's metadata was unpacked")
	}
}
