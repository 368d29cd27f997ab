package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

// The terminal shows an execute_command line's commands and what in it is
// always asked, and Enter at "always" takes the patterns offered.
func TestPrompter_ShowsTheCommandsAndOffersTheirPatterns(t *testing.T) {
	var out strings.Builder
	req := event.ApprovalRequestedData{
		Name: "execute_command", Risk: "exec", Arguments: `{"command":"cat go.mod | head -3; curl x | sh"}`, Reason: "exec is asked",
		Commands: []string{"cat go.mod", "head -3", "curl x", "sh"}, Risky: []string{"sh reading commands from its input"},
		Patterns: []string{"cat *", "head *", "curl *", "sh *"},
	}
	got := newPrompter(strings.NewReader("a\n\n"), &out).ask(req)
	if got.decision != event.ApproveAlways || got.pattern != "cat *; head *; curl *; sh *" {
		t.Errorf("answer %+v", got)
	}
	for _, want := range []string{"    $ cat go.mod\n", "    $ sh\n", "always asked: sh reading commands from its input", "exec is asked", "Enter for cat *; head *; curl *; sh *"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompt lacks %q:\n%s", want, out.String())
		}
	}
	// Patterns of the person's own replace those offered.
	if got := newPrompter(strings.NewReader("always\ncat *\n"), &out).ask(req); got.pattern != "cat *" {
		t.Errorf("own pattern: %+v", got)
	}
}

// A call escaping the sandbox is allowed once or denied: "for this run"
// and "always" are not offered, and not taken.
func TestPrompter_EscapingIsOnceOrDeny(t *testing.T) {
	var out strings.Builder
	req := event.ApprovalRequestedData{Name: "execute_command", Risk: "exec", Arguments: `{"command":"make"}`, Escaping: true, Commands: []string{"make"}}
	got := newPrompter(strings.NewReader("r\na\no\n"), &out).ask(req)
	if got.decision != event.ApproveOnce {
		t.Errorf("answer %+v, want allow_once after r and a were refused", got)
	}
	if !strings.Contains(out.String(), "outside the OS sandbox") || strings.Contains(out.String(), "[a] always") {
		t.Errorf("prompt:\n%s", out.String())
	}
}

// answers is a runapi.Runs that keeps the answers to approvals.
type answers struct {
	runapi.Runs
	got []runner.Answer
}

func (a *answers) Approve(_, _ string, ans runner.Answer) error {
	a.got = append(a.got, ans)
	return nil
}

// --yes allows what is asked, except a call escaping the sandbox: that is
// denied, the model told why and the person how to approve it.
func TestAsker_YesDeniesEscaping(t *testing.T) {
	var stderr strings.Builder
	runs := &answers{}
	a := &asker{env: &Env{Stderr: &stderr}, runs: runs, id: "run1", yes: true}
	request := func(id string, escaping bool) event.Event {
		data, _ := json.Marshal(event.ApprovalRequestedData{ApprovalID: id, Name: "execute_command", Risk: "exec", Escaping: escaping})
		return event.Event{Type: event.ApprovalRequested, Data: data}
	}
	a.approval(request("a1", false), nil)
	a.approval(request("a2", true), nil)
	if len(runs.got) != 2 || runs.got[0].Decision != event.ApproveOnce || runs.got[1].Decision != event.ApproveDeny ||
		!strings.Contains(runs.got[1].Reason, "--yes does not give") {
		t.Fatalf("answers %+v", runs.got)
	}
	if !strings.Contains(stderr.String(), "run without --yes to approve it") {
		t.Errorf("stderr: %q", stderr.String())
	}
}

// hermes tools call --yes: the same.
func TestApproveCall_YesDeniesEscaping(t *testing.T) {
	policy := toolbox.NewPolicy(toolbox.PolicyConfig{Risk: map[toolbox.Risk]toolbox.Action{toolbox.RiskExec: toolbox.Allow}}, nil)
	tool := func(where toolbox.Confinement) toolbox.Prepared {
		return toolbox.Prepared{Tool: toolbox.Tool{Name: "execute_command", Risk: toolbox.RiskExec,
			Confinement: func(toolbox.Env, json.RawMessage) toolbox.Confinement { return where }}, Args: json.RawMessage(`{"command":"ls"}`)}
	}
	env := &Env{Stderr: &strings.Builder{}}
	if err := approveCall(env, policy, tool(toolbox.Unconfined), toolbox.Env{}, true); err != nil {
		t.Errorf("an allowed call: %v", err)
	}
	if err := approveCall(env, policy, tool(toolbox.Escaping), toolbox.Env{}, true); !errors.Is(err, toolbox.ErrDenied) || !strings.Contains(err.Error(), "without --yes") {
		t.Errorf("an escaping call under --yes: %v", err)
	}
}

// A vault edit is shown by what it would change: each note, its links and
// properties before → after, its lines as - and +.
func TestPrompter_ShowsAVaultEditsChange(t *testing.T) {
	var out strings.Builder
	req := event.ApprovalRequestedData{
		Name: "rename_note", Risk: "write", Arguments: `{"path":"Plan.md","new_path":"Archive/Plan 2024.md"}`,
		Change: json.RawMessage(`{"tool":"rename_note","notes":[` +
			`{"path":"Weekly.md","links":[{"line":1,"before":"[[Plan]]","after":"[[Plan 2024]]"}],"hunks":[{"line":1,"before":["See [[Plan]]."],"after":["See [[Plan 2024]]."]}]},` +
			`{"path":"Plan.md","new_path":"Archive/Plan 2024.md","properties":[{"name":"status","before":"draft","after":"done"},{"name":"tags","after":["a","b"],"added":true}]}]}`),
	}
	if got := newPrompter(strings.NewReader("o\n"), &out).ask(req); got.decision != event.ApproveOnce {
		t.Errorf("answer %+v", got)
	}
	for _, want := range []string{"it changes:", "• Weekly.md\n", "[[Plan]] → [[Plan 2024]]\n",
		"• Plan.md → Archive/Plan 2024.md\n", "status: draft → done", `tags: + ["a","b"]`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompt lacks %q:\n%s", want, out.String())
		}
	}
}

// The terminal says why in its own language, which a run followed on a
// server started in another need not share.
func TestPrompter_ReasonInTheTerminalsLanguage(t *testing.T) {
	was := i18n.Current()
	i18n.SetLang(i18n.ZH)
	t.Cleanup(func() { i18n.SetLang(was) })
	var out strings.Builder
	req := event.ApprovalRequestedData{
		Name: "write_file", Risk: "write", Arguments: `{"path":"a.txt"}`, Reason: "write_file is a write tool",
		ReasonIn: map[string]string{"en": "write_file is a write tool", "zh-CN": "write_file 是 write 类工具"},
	}
	newPrompter(strings.NewReader("d\n\n"), &out).ask(req)
	if !strings.Contains(out.String(), "write_file 是 write 类工具") || strings.Contains(out.String(), "is a write tool") {
		t.Errorf("the prompt:\n%s", out.String())
	}
	// A request without it, from an older log, says Reason.
	out.Reset()
	req.ReasonIn = nil
	newPrompter(strings.NewReader("d\n\n"), &out).ask(req)
	if !strings.Contains(out.String(), "write_file is a write tool") {
		t.Errorf("without reason_in:\n%s", out.String())
	}
}

// A call of a megabyte (a file written whole, minified code on one line)
// leaves the question on the screen: the arguments and each command are
// cut after a few hundred characters, never inside a character, saying how
// many more there are; only the first commands are listed.
func TestPrompter_ClipsWhatItShows(t *testing.T) {
	minified := "var a=function(){return'压缩'};" + strings.Repeat("x=1;", 256<<10) // 1 MiB on one line
	args, _ := json.Marshal(map[string]string{"path": "dist/app.min.js", "content": minified})
	commands := []string{"node -e '" + minified + "'"}
	for i := range 20 {
		commands = append(commands, "echo "+strings.Repeat("中", i))
	}
	var out strings.Builder
	req := event.ApprovalRequestedData{Name: "execute_command", Risk: "exec", Arguments: string(args), Commands: commands}
	if got := newPrompter(strings.NewReader("d\n\n"), &out).ask(req); got.decision != event.ApproveDeny {
		t.Fatalf("answer %+v", got)
	}
	shown := out.String()
	if len(shown) > 8<<10 {
		t.Errorf("the prompt is %d bytes for a call of %d", len(shown), len(args))
	}
	if !utf8.ValidString(shown) {
		t.Error("a character was cut in two")
	}
	for _, want := range []string{`{"content":"var a=function(){return'压缩'};x=1;`, "more characters; the run's page shows the call whole)", "    $ echo 中中中\n", "… and 9 more commands"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "echo "+strings.Repeat("中", 11)) {
		t.Errorf("the prompt lists more than the first commands:\n%s", shown)
	}
	// A short call is shown whole.
	if s := shownOf(`{"command":"ls"}`, argsShown); s != `{"command":"ls"}` {
		t.Errorf("shownOf = %q", s)
	}
	if s := shownOf("中文字符", 2); !strings.HasPrefix(s, "中文… (2 more characters") {
		t.Errorf("shownOf = %q", s)
	}
}
