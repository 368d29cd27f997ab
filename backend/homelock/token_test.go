package homelock_test

import (
	"hermes/backend/homelock"
	"os"
	"runtime"
	"sync"
	"testing"
)

func TestHomeToken(t *testing.T) {
	home := t.TempDir()
	first, err := homelock.HomeToken(home, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 32 {
		t.Fatalf("token %q", first)
	}
	st, err := os.Stat(homelock.TokenPath(home))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("%s is %v, want 0600", homelock.TokenPath(home), st.Mode().Perm())
	}
	// The next process on the home gets the same token.
	if again, err := homelock.HomeToken(home, false); err != nil || again != first {
		t.Fatalf("again: %q, %v; want %q", again, err, first)
	}
	// Renewing replaces it for every later process.
	renewed, err := homelock.HomeToken(home, true)
	if err != nil || renewed == first || len(renewed) != 32 {
		t.Fatalf("renewed: %q, %v (was %q)", renewed, err, first)
	}
	if again, err := homelock.HomeToken(home, false); err != nil || again != renewed {
		t.Fatalf("after renewing: %q, %v; want %q", again, err, renewed)
	}
	// Deleting the file is another way to a new one.
	if err := os.Remove(homelock.TokenPath(home)); err != nil {
		t.Fatal(err)
	}
	if fresh, err := homelock.HomeToken(home, false); err != nil || fresh == renewed {
		t.Fatalf("after deleting: %q, %v", fresh, err)
	}
}

// A file that holds no token, or that others may read, is replaced.
func TestHomeToken_ReplacesWhatIsNoSecret(t *testing.T) {
	cases := []struct {
		name string
		data string
		perm os.FileMode
	}{
		{"empty", "", 0o600},
		{"not a token", "hello\n", 0o600},
		{"readable by others", "0123456789abcdef0123456789abcdef\n", 0o644},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.perm != 0o600 && runtime.GOOS == "windows" {
				t.Skip("no permission bits on Windows")
			}
			home := t.TempDir()
			if err := os.WriteFile(homelock.TokenPath(home), []byte(c.data), c.perm); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(homelock.TokenPath(home), c.perm); err != nil {
				t.Fatal(err)
			}
			tok, err := homelock.HomeToken(home, false)
			if err != nil {
				t.Fatal(err)
			}
			if tok == "0123456789abcdef0123456789abcdef" || len(tok) != 32 {
				t.Fatalf("token %q", tok)
			}
			st, err := os.Stat(homelock.TokenPath(home))
			if err != nil {
				t.Fatal(err)
			}
			if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v after replacing", st.Mode().Perm())
			}
		})
	}
}

// Processes that start at once on a home without a token agree on one.
func TestHomeToken_AtOnce(t *testing.T) {
	home := t.TempDir()
	toks := make([]string, 8)
	var wg sync.WaitGroup
	for i := range toks {
		wg.Go(func() {
			tok, err := homelock.HomeToken(home, false)
			if err != nil {
				t.Error(err)
			}
			toks[i] = tok
		})
	}
	wg.Wait()
	for _, tok := range toks[1:] {
		if tok != toks[0] {
			t.Fatalf("tokens differ: %q", toks)
		}
	}
}
