package toolbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newWorkspace makes a workspace in a temp dir holding files (path →
// content; a path ending in / is an empty directory).
func newWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	ws := t.TempDir()
	for p, content := range files {
		full := filepath.Join(ws, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// call runs a file tool the way the loop does: Prepare, then Run.
func call(t *testing.T, ws, name, args string) (string, error) {
	t.Helper()
	r := NewRegistry()
	for _, tool := range FileTools(nil) {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	p, err := r.Prepare(name, args)
	if err != nil {
		t.Fatalf("Prepare(%s, %s) = %v", name, args, err)
	}
	return p.Tool.Run(t.Context(), Env{Workspace: ws, RunID: "r1", CallID: "c1"}, p.Args)
}

func mustCall(t *testing.T, ws, name, args string) string {
	t.Helper()
	out, err := call(t, ws, name, args)
	if err != nil {
		t.Fatalf("%s(%s) = %v", name, args, err)
	}
	return out
}

func TestFileTools_Risks(t *testing.T) {
	want := map[string]Risk{"list_files": RiskRead, "read_file": RiskRead, "write_file": RiskWrite}
	for _, tool := range FileTools(nil) {
		if tool.Risk != want[tool.Name] {
			t.Errorf("%s risk = %s, want %s", tool.Name, tool.Risk, want[tool.Name])
		}
		delete(want, tool.Name)
	}
	if len(want) != 0 {
		t.Errorf("missing tools: %v", want)
	}
}

func TestFileTools_NoWorkspace(t *testing.T) {
	for _, ws := range []string{"", "relative/dir", filepath.Join(t.TempDir(), "missing")} {
		_, err := call(t, ws, "list_files", `{}`)
		if err == nil || !strings.Contains(err.Error(), "workspace") {
			t.Errorf("workspace %q: err = %v", ws, err)
		}
	}
}
