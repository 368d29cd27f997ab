package vault_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"hermes/backend/cli/clitest"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

// The end-to-end test runs hermes as a real process: the test binary
// re-executes itself with HERMES_TEST_MAIN set and becomes `hermes`.
func TestMain(m *testing.M) { clitest.Main(m) }

// summary is what the scripted model appends to the weekly note.
const summary = "## 本周总结\n- [[Alpha]]: the pipeline ships on Friday.\n- [[Beta]]: 等待 Alpha 完成。"

// TestRun_SearchReadAppend: a scripted model searches the vault, reads two
// notes and appends a summary to a third (a GBK note with CRLF line
// endings) through `hermes run --vault`; the note on disk is exactly the
// old bytes plus the summary in GBK with CRLF.
func TestRun_SearchReadAppend(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	weeklyBefore, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte("# 周报\r\n\r\n上周：无。\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"Projects/Alpha.md":      []byte("---\ntags: [project]\n---\n# Alpha\n\nThe pipeline ships on Friday.\n"),
		"Projects/Beta.md":       []byte("# Beta\n\nBeta 等待 Alpha 的 pipeline 完成。\n"),
		"Journal/Weekly.md":      weeklyBefore,
		".obsidian/workspace.md": []byte("pipeline decoy\n"),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch len(toolResults(req)) {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "s1", Name: "search_notes", Arguments: `{"query":"pipeline"}`}}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{
				{ID: "r1", Name: "read_note", Arguments: `{"note":"Projects/Alpha.md"}`},
				{ID: "r2", Name: "read_note", Arguments: `{"note":"[[Beta]]"}`},
			}}
		case 3:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "a1", Name: "append_note",
				Arguments: fmt.Sprintf(`{"note":"[[Weekly]]","content":%q}`, summary)}}}
		}
		return llmtest.Step{Content: "Added the summary to [[Weekly]]."}
	})

	// The model is scripted turn by turn: the run acts and observes,
	// without routing or planning calls.
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[agent]\nstrategy = \"react\"\nroute = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, "run", "--home", home, "--base-url", srv.URL,
		"--workspace", t.TempDir(), "--vault", dir, "--yes", "summarise my pipeline notes into the weekly note")
	cmd.Env = []string{"HERMES_TEST_MAIN=1", "HERMES_LANG=en", "NO_COLOR=1", "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=" + srv.URL, "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hermes run: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}

	reqs := srv.Requests()
	seen := toolResults(reqs[len(reqs)-1])
	if len(seen) != 4 {
		t.Fatalf("the model saw %d tool results, want 4:\n%s", len(seen), stdout.String())
	}
	checks := []struct {
		result string
		want   []string
	}{
		{seen[0], []string{"2 notes match \"pipeline\"", "Projects/Alpha.md", "Projects/Beta.md", "The pipeline ships on Friday."}},
		{seen[1], []string{"[Projects/Alpha.md · tags: #project]", "The pipeline ships on Friday."}},
		{seen[2], []string{"[Projects/Beta.md]", "Beta 等待 Alpha 的 pipeline 完成。"}},
		{seen[3], []string{"appended", "Journal/Weekly.md", "gb18030, CRLF line endings", "artifacts/"}},
	}
	for i, c := range checks {
		for _, w := range c.want {
			if !strings.Contains(c.result, w) {
				t.Errorf("tool result %d lacks %q:\n%s", i, w, c.result)
			}
		}
	}
	if strings.Contains(seen[0], "decoy") || strings.Contains(seen[0], ".obsidian") {
		t.Errorf("the search read .obsidian:\n%s", seen[0])
	}

	want, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte("# 周报\r\n\r\n上周：无。\r\n" + strings.ReplaceAll(summary, "\n", "\r\n") + "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "Journal", "Weekly.md"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Weekly.md on disk:\n%q\nwant:\n%q (%v)", got, want, err)
	}

	runs, err := runlog.List(home)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %+v, %v", runs, err)
	}
	kept, _, err := runlog.ReadArtifact(home, "artifacts/"+runs[0].RunID+"/a1.before", 0, 0)
	if err != nil || !bytes.Equal(kept, weeklyBefore) {
		t.Errorf("the previous content kept for undo = %q, %v", kept, err)
	}
}

// toolResults are the tool results a request carries, in order.
func toolResults(req llmtest.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			out = append(out, m.Content)
		}
	}
	return out
}
