package cli_test

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"hermes/backend/cli"
)

// put writes an executable file at the slash path p under root.
func put(t *testing.T, root, p, content string) string {
	t.Helper()
	path := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFindWindow(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the window's name ends in .exe there; the layouts are the Linux packages'")
	}
	t.Run("the .deb's layout", func(t *testing.T) {
		root := t.TempDir()
		exe := put(t, root, "usr/bin/hermes", "headless")
		want := put(t, root, "usr/lib/hermes/hermes-window", "window")
		if got, _ := cli.FindWindow(exe); got != filepath.Join(root, "usr/bin/../lib/hermes/hermes-window") || !sameFile(t, got, want) {
			t.Fatalf("found %q, want %s", got, want)
		}
	})
	t.Run("beside it first", func(t *testing.T) {
		root := t.TempDir()
		exe := put(t, root, "opt/hermes/bin/hermes", "headless")
		beside := put(t, root, "opt/hermes/bin/hermes-window", "window")
		put(t, root, "opt/hermes/lib/hermes/hermes-window", "another window")
		if got, _ := cli.FindWindow(exe); got != beside {
			t.Fatalf("found %q, want %s", got, beside)
		}
	})
	t.Run("through a link on PATH", func(t *testing.T) {
		root := t.TempDir()
		exe := put(t, root, "opt/hermes/hermes", "headless")
		want := put(t, root, "opt/hermes/hermes-window", "window")
		link := filepath.Join(root, "bin", "hermes")
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(exe, link); err != nil {
			t.Fatal(err)
		}
		if got, _ := cli.FindWindow(link); !sameFile(t, got, want) {
			t.Fatalf("found %q, want %s", got, want)
		}
	})
	t.Run("none, or only itself", func(t *testing.T) {
		root := t.TempDir()
		exe := put(t, root, "usr/lib/hermes/hermes-window", "a headless build named so")
		put(t, root, "usr/lib/hermes/lib/hermes/hermes-window/x", "a folder, not a window")
		got, looked := cli.FindWindow(exe)
		if got != "" {
			t.Fatalf("found %q", got)
		}
		if looked[0] != exe || looked[1] != filepath.Join(root, "usr/lib/lib/hermes/hermes-window") {
			t.Fatalf("looked at %q", looked)
		}
	})
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// A bare `hermes` of a headless build installed as the .deb installs it
// runs /usr/lib/hermes/hermes-window in its place, on the same home; with
// no window build it says where it looked and exits with ExitUsage.
func TestBareHermes_RunsTheWindowBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for the window build")
	}
	root, home := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(root, "usr", "bin", "hermes")
	copyFile(t, self, exe)

	// Without a window build.
	cmd := hermes(t, "--home", home)
	cmd.Path = exe
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitUsage ||
		!strings.Contains(string(out), filepath.Join(root, "usr", "lib", "hermes", "hermes-window")) {
		t.Fatalf("exit %d (%v): %s", code, err, out)
	}

	// With one: it gets the home, and this process's place.
	said := filepath.Join(t.TempDir(), "said")
	put(t, root, "usr/lib/hermes/hermes-window", "#!/bin/sh\nprintf '%s\\n' \"$@\" \"$$\" >\""+said+"\"\nexit 7\n")
	cmd = hermes(t, "--home", home)
	cmd.Path = exe
	out, err = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 7 {
		t.Fatalf("exit %d (%v), want the window's 7: %s", code, err, out)
	}
	got, err := os.ReadFile(said)
	if err != nil {
		t.Fatal(err)
	}
	if want := "--home\n" + home + "\n" + strconv.Itoa(cmd.Process.Pid) + "\n"; string(got) != want {
		t.Fatalf("the window was started with\n%s\nwant\n%s", got, want)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
