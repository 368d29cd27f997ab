package runlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestArtifact_RoundTrip(t *testing.T) {
	home := t.TempDir()
	content := []byte("0123456789abcdefghij")
	ref, err := SaveArtifact(home, "20261130-013501-aaaaaa", "call_1", content)
	if err != nil {
		t.Fatal(err)
	}
	if ref != "artifacts/20261130-013501-aaaaaa/call_1" {
		t.Fatalf("ref = %q", ref)
	}
	tests := []struct {
		offset, limit int
		want          string
	}{
		{0, 0, string(content)},
		{0, 5, "01234"},
		{5, 3, "567"},
		{15, 100, "fghij"},
		{20, 5, ""},
		{99, 5, ""},
	}
	for _, tt := range tests {
		got, total, err := ReadArtifact(home, ref, tt.offset, tt.limit)
		if err != nil || string(got) != tt.want || total != len(content) {
			t.Errorf("ReadArtifact(%d, %d) = %q, %d, %v; want %q, %d", tt.offset, tt.limit, got, total, err, tt.want, len(content))
		}
	}
	if _, _, err := ReadArtifact(home, ref, -1, 5); !errors.Is(err, ErrBadRange) {
		t.Errorf("negative offset: %v, want ErrBadRange", err)
	}
	if _, _, err := ReadArtifact(home, "artifacts/20261130-013501-aaaaaa/call_2", 0, 0); !errors.Is(err, ErrArtifactNotFound) {
		t.Errorf("missing artifact: %v, want ErrArtifactNotFound", err)
	}
}

// A model that reuses a call id must not lose the first call's artifact:
// each save gets a ref of its own.
func TestArtifact_ReusedCallIDNeverReplaces(t *testing.T) {
	home := t.TempDir()
	tests := []struct{ call, content, want string }{
		{"call_0", "first", "artifacts/run1/call_0"},
		{"call_0", "second", "artifacts/run1/call_0-2"},
		{"call_0.before", "note v1", "artifacts/run1/call_0.before"},
		{"call_0.before", "note v2", "artifacts/run1/call_0-2.before"},
		{"call_0", "third", "artifacts/run1/call_0-3"},
		{"call_0.before", "note v3", "artifacts/run1/call_0-3.before"},
	}
	for _, tt := range tests {
		ref, err := SaveArtifact(home, "run1", tt.call, []byte(tt.content))
		if err != nil || ref != tt.want {
			t.Fatalf("SaveArtifact(%q) = %q, %v; want %q", tt.call, ref, err, tt.want)
		}
	}
	for _, tt := range tests {
		if got, _, err := ReadArtifact(home, tt.want, 0, 0); err != nil || string(got) != tt.content {
			t.Errorf("ReadArtifact(%q) = %q, %v; want %q", tt.want, got, err, tt.content)
		}
	}
	entries, err := os.ReadDir(filepath.Join(home, "artifacts", "run1"))
	if err != nil || len(entries) != len(tests) {
		t.Errorf("the run's artifacts folder holds %d entries (%v), want %d and no temporary files", len(entries), err, len(tests))
	}
}

// Concurrent read-only calls of one turn may share a reused id; each save
// still gets its own file.
func TestArtifact_ConcurrentSavesOfOneCallID(t *testing.T) {
	home := t.TempDir()
	const n = 8
	refs := make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ref, err := SaveArtifact(home, "run1", "call_0", []byte(strconv.Itoa(i)))
			if err != nil {
				t.Error(err)
			}
			refs <- ref
		})
	}
	wg.Wait()
	close(refs)
	seen := map[string]bool{}
	contents := map[string]bool{}
	for ref := range refs {
		got, _, err := ReadArtifact(home, ref, 0, 0)
		if err != nil || seen[ref] {
			t.Fatalf("ref %q: duplicate %v, %v", ref, seen[ref], err)
		}
		seen[ref], contents[string(got)] = true, true
	}
	if len(contents) != n {
		t.Errorf("%d distinct contents kept, want %d", len(contents), n)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "artifacts", "run1")); len(entries) != n {
		t.Errorf("the run's folder holds %d files, want the %d artifacts and no temporary file", len(entries), n)
	}
}

func TestArtifact_UnsafeCallIDsStayInside(t *testing.T) {
	home := t.TempDir()
	refs := map[string]bool{}
	for _, id := range []string{"../../escape", "a/b", "a_b", ".hidden", "", "调用-1", strings.Repeat("x", 300)} {
		ref, err := SaveArtifact(home, "run1", id, []byte(id))
		if err != nil {
			t.Fatalf("SaveArtifact(%q): %v", id, err)
		}
		if !strings.HasPrefix(ref, "artifacts/run1/") || strings.Count(ref, "/") != 2 || strings.Contains(ref, "..") || refs[ref] {
			t.Fatalf("call id %q gave ref %q", id, ref)
		}
		refs[ref] = true
		if got, _, err := ReadArtifact(home, ref, 0, 0); err != nil || string(got) != id {
			t.Fatalf("ReadArtifact(%q) = %q, %v", ref, got, err)
		}
	}
}

func TestArtifact_RefusesEscapes(t *testing.T) {
	home := t.TempDir()
	if _, err := SaveArtifact(home, "run1", "call_1", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(home, "hermes.toml")
	if err := os.WriteFile(secret, []byte(`api_key = "sk-secret"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(home, "artifacts", "run1", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(home, filepath.Join(home, "artifacts", "up")); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{
		"hermes.toml",
		"../hermes.toml",
		"artifacts/../hermes.toml",
		"artifacts/run1/../../hermes.toml",
		secret,
		"logs/2026-11-30/run_x.jsonl",
		`artifacts\..\hermes.toml`,
		"artifacts/run1/link",
		"artifacts/up/hermes.toml",
		"artifacts/run1",
		"artifacts/",
	} {
		got, _, err := ReadArtifact(home, ref, 0, 0)
		if !errors.Is(err, ErrBadArtifactRef) {
			t.Errorf("ReadArtifact(%q) = %q, %v; want ErrBadArtifactRef", ref, got, err)
		}
		if bytes.Contains(got, []byte("sk-secret")) {
			t.Fatalf("ReadArtifact(%q) leaked the config", ref)
		}
	}
}
