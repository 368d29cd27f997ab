package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/longterm"
	"hermes/backend/store"
)

// memoryHome is a home whose memory holds two entries.
func memoryHome(t *testing.T) (home string, ids []uint64) {
	t.Helper()
	home = t.TempDir()
	s, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	written, err := longterm.New(s).Remember([]longterm.Entry{
		{Kind: longterm.KindOutcome, Text: "Task: Compile the Q3 report\nOutcome: revenue was 1,204,000", RunID: "20260110-090000-abcdef"},
		{Kind: longterm.KindPreference, Text: "记住：日期写成 YYYY-MM-DD"},
	}, time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return home, []uint64{written[0].ID, written[1].ID}
}

func TestMemoryCommand(t *testing.T) {
	home, ids := memoryHome(t)
	code, out, _ := runCLI(t, "memory", "--home", home)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "ID") ||
		!strings.Contains(lines[1], "preference") || !strings.Contains(lines[2], "Task: Compile the Q3 report Outcome: revenue") {
		t.Fatalf("memory list = %d\n%s", code, out)
	}

	code, out, _ = runCLI(t, "memory", "show", "1", "--home", home)
	if code != ExitOK || !strings.Contains(out, "20260110-090000-abcdef") || !strings.Contains(out, "Outcome: revenue was 1,204,000") || !strings.Contains(out, "never") {
		t.Fatalf("memory show = %d\n%s", code, out)
	}

	if code, out, _ = runCLI(t, "memory", "pin", "2", "--home", home); code != ExitOK || !strings.Contains(out, "pinned memory 2") {
		t.Fatalf("memory pin = %d %s", code, out)
	}
	code, out, _ = runCLI(t, "memory", "list", "--json", "--home", home)
	var entries []longterm.Entry
	if err := json.Unmarshal([]byte(out), &entries); code != ExitOK || err != nil || len(entries) != 2 || !entries[0].Pinned || entries[0].ID != ids[1] {
		t.Fatalf("memory list --json after pin = %d %v\n%s", code, err, out)
	}

	if code, out, _ = runCLI(t, "memory", "forget", "1", "--home", home); code != ExitOK || !strings.Contains(out, "forgot memory 1") {
		t.Fatalf("memory forget = %d %s", code, out)
	}
	if code, _, errOut := runCLI(t, "memory", "show", "1", "--home", home); code != ExitFailed || !strings.Contains(errOut, "there is no memory 1") {
		t.Fatalf("show after forget = %d %s", code, errOut)
	}
}

func TestMemoryCommand_BadArguments(t *testing.T) {
	home := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"memory", "show"}, "needs the id of a memory"},
		{[]string{"memory", "forget", "abc"}, `"abc" is not a memory id`},
		{[]string{"memory", "list", "3"}, "usage: hermes memory"},
		{[]string{"memory", "erase", "3"}, "usage: hermes memory"},
		{[]string{"memory", "list", "--limit", "-1"}, "--limit must be 0 (all) or more, not -1"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, append(c.args, "--home", home)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, ExitUsage, c.want)
		}
	}
	if code, out, _ := runCLI(t, "memory", "--home", home); code != ExitOK || !strings.Contains(out, "no memories yet") {
		t.Errorf("empty memory: %d %q", code, out)
	}
}

// A chat conversation's memory says whose it is, in the list and in show.
func TestMemoryCommand_ShowsWhoseMemory(t *testing.T) {
	home := t.TempDir()
	s, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	written, err := longterm.New(s).In("bot/wecom/alice/0").Remember([]longterm.Entry{{Kind: longterm.KindFact, Text: "The harbour code is ZX-4471"}}, time.Now())
	if err != nil || s.Close() != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, "memory", "--home", home); code != ExitOK || !strings.Contains(out, "[bot/wecom/alice/0] The harbour code is ZX-4471") {
		t.Fatalf("memory list = %d\n%s", code, out)
	}
	code, out, _ := runCLI(t, "memory", "show", fmt.Sprint(written[0].ID), "--home", home)
	if code != ExitOK || !strings.Contains(out, "WHOSE:") || !strings.Contains(out, "bot/wecom/alice/0") {
		t.Fatalf("memory show = %d\n%s", code, out)
	}
}

// `hermes memory show` says where a memory came from and why a run last
// recalled it, in both languages; an entry older than sources says its
// source is unknown.
func TestMemoryCommand_ShowsSourceAndWhy(t *testing.T) {
	home := t.TempDir()
	s, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
	written, err := longterm.New(s).Remember([]longterm.Entry{
		{Kind: longterm.KindOutcome, Text: "Task: Compile the Q3 sales report\nOutcome: revenue was 1,204,000", RunID: "20260110-090000-aaaaaa", Source: longterm.SourceResult},
		{Kind: longterm.KindPreference, Text: "Skip the daily notes; they repeat the project notes.", RunID: "20260110-090000-bbbbbb", Source: longterm.SourceStanding},
		{Kind: longterm.KindFact, Text: "Office hours end at six"},
	}, day)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := longterm.New(s).Recall("Update the Q3 sales report", 5)
	if err != nil || longterm.New(s).MarkRecalled(hits, "20260111-090000-cccccc", day.AddDate(0, 0, 1)) != nil || s.Close() != nil {
		t.Fatal(err)
	}
	show := func(id uint64) string {
		code, out, errOut := runCLI(t, "memory", "show", fmt.Sprint(id), "--home", home)
		if code != ExitOK {
			t.Fatalf("memory show %d = %d %s", id, code, errOut)
		}
		return out
	}
	cases := []struct {
		lang i18n.Lang
		id   uint64
		want []string
	}{
		{i18n.EN, written[0].ID, []string{"SOURCE:", "the run's result", "20260110-090000-aaaaaa", "WHY:", "run 20260111-090000-cccccc", "matched the task's words q3, report", "% relevant to the task"}},
		{i18n.EN, written[1].ID, []string{"the run's standing instructions", "WHY:", "a preference, which holds for every task"}},
		{i18n.EN, written[2].ID, []string{"SOURCE:", "unknown (kept before sources were)"}},
		{i18n.ZH, written[0].ID, []string{"来源:", "运行的结果", "召回原因:", "匹配任务中的词 q3、report", "与任务的相关度"}},
		{i18n.ZH, written[1].ID, []string{"运行的常驻指令", "偏好，适用于每个任务"}},
	}
	for _, c := range cases {
		useLang(t, c.lang)
		out := show(c.id)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: memory show %d lacks %q:\n%s", c.lang, c.id, w, out)
			}
		}
	}
	if out := show(written[2].ID); strings.Contains(out, "WHY:") {
		t.Errorf("a memory never recalled says why:\n%s", out)
	}
}
