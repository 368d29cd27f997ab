package vault

import (
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// A change in plain lines: notes, links and properties before → after,
// lines only where links and properties do not tell, each bound kept, in
// either language; nothing for a call without a change.
func TestChangeText(t *testing.T) {
	raw := json.RawMessage(`{"tool":"rename_note","notes":[
		{"path":"Plan.md","new_path":"归档/计划 2024.md","properties":[{"name":"status","before":"draft","after":"done"},{"name":"tags","after":["a","b"],"added":true}]},
		{"path":"Weekly.md","links":[{"line":1,"before":"[[Plan]]","after":"[[计划 2024]]"},{"line":2,"before":"[[Plan#^g]]","after":"[[计划 2024#^g]]"},{"line":3,"after":"[[New]]"}],
		 "hunks":[{"line":1,"before":["See [[Plan]]."],"after":["See [[计划 2024]]."]}]},
		{"path":"Daily/2026-12-05.md","created":true,"sections_added":["Tasks"],"hunks":[{"line":1,"after":["# 今天","- [ ] 写周报，很长很长很长的一行"]}]}]}`)
	got := strings.Join(ChangeText(i18n.EN, raw, TextLimits{}), "\n")
	want := `• Plan.md → 归档/计划 2024.md
  status: draft → done
  tags: + ["a","b"]
• Weekly.md
  [[Plan]] → [[计划 2024]]
  [[Plan#^g]] → [[计划 2024#^g]]
  (none) → [[New]]
• Daily/2026-12-05.md (a new note)
  section “Tasks” added
     1 + # 今天
     1 + - [ ] 写周报，很长很长很长的一行`
	if got != want {
		t.Errorf("unbounded:\n%s\nwant:\n%s", got, want)
	}

	got = strings.Join(ChangeText(i18n.ZH, raw, TextLimits{Notes: 2, Links: 1, Lines: 1, Width: 6}), "\n")
	for _, w := range []string{"  [[Plan… → [[计划 2…", "  ……另有 2 个链接", "……另有 1 篇笔记"} {
		if !strings.Contains(got, w) {
			t.Errorf("bounded lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "Daily") {
		t.Errorf("a third note past Notes: 2:\n%s", got)
	}
	lines := ChangeText(i18n.ZH, json.RawMessage(`{"tool":"append_note","notes":[{"path":"a.md","hunks":[{"line":3,"before":["x"],"after":["y","z"]}]}]}`), TextLimits{Lines: 2})
	if strings.Join(lines, "\n") != "• a.md\n     3 - x\n     3 + y\n  ……另有 1 行" {
		t.Errorf("lines bound: %q", lines)
	}
	for _, none := range []json.RawMessage{nil, json.RawMessage(`"x"`), json.RawMessage(`{"tool":"read_note","notes":[]}`)} {
		if lines := ChangeText(i18n.EN, none, TextLimits{}); lines != nil {
			t.Errorf("%s: %q", none, lines)
		}
	}
}
