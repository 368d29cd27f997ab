package vault

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMomentFormat(t *testing.T) {
	at := time.Date(2024, 5, 6, 21, 7, 3, 0, time.UTC) // a Monday
	for format, want := range map[string]string{
		"YYYY-MM-DD":                 "2024-05-06",
		"dddd, MMMM Do YYYY":         "Monday, May 6th 2024",
		"[Week] WW, gggg":            "Week 19, 2024",
		"YY/M/D h:mm A":              "24/5/6 9:07 PM",
		"YYYY年M月D日 ddd":              "2024年5月6日 Mon",
		"YYYY/MM/YYYY-MM-DD":         "2024/05/2024-05-06",
		"HH:mm:ss":                   "21:07:03",
		"Qo [quarter], DDDD [day]":   "2nd quarter, 127 day",
		"[YYYY] YYYY [[literal]] MM": "YYYY 2024 [literal] 05",
	} {
		if got := momentFormat(at, format); got != want {
			t.Errorf("momentFormat(%q) = %q, want %q", format, got, want)
		}
	}
}

func TestDailyNote_FromSettingsAndTemplate(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			tv := helpVault(t, lang)
			for p, text := range map[string]string{
				".obsidian/daily-notes.json": `{"folder":"Journal/Daily/","format":"YYYY/MM/YYYY-MM-DD dddd","template":"Templates/Daily"}`,
				".obsidian/templates.json":   `{"folder":"Templates","dateFormat":"YYYY年MM月DD日","timeFormat":"HH:mm"}`,
				"Templates/Daily.md":         "---\ncreated: {{date:YYYY-MM-DD}}\n---\n# {{title}}\n\n{{date}} {{time}} {{unknown}}\n",
				"Templates/Meeting.md":       "# {{title}}\n日期：{{date}}",
			} {
				write(t, filepath.Join(tv.dir, p), []byte(text))
			}
			v := tv.open(t, false)
			v.now = func() time.Time { return time.Date(2024, 5, 6, 9, 7, 0, 0, time.Local) }

			out := mustCall(t, v, "daily_note", `{}`)
			p := "Journal/Daily/2024/05/2024-05-06 Monday.md"
			want := "---\ncreated: 2024-05-06\n---\n# 2024-05-06 Monday\n\n2024年05月06日 09:07 {{unknown}}\n"
			if got := readFile(t, tv, p); got != want {
				t.Errorf("the daily note:\n%q\nwant\n%q", got, want)
			}
			if w := containsAll(out, "created the daily note "+p, "from the template Templates/Daily", "[[2024-05-06 Monday]]"); w != "" {
				t.Errorf("result lacks %q: %s", w, out)
			}
			if out := mustCall(t, v, "daily_note", `{"date":"today"}`); !strings.Contains(out, "exists") || !strings.Contains(out, "# 2024-05-06 Monday") {
				t.Errorf("the second call did not read the note:\n%s", out)
			}
			if out := mustCall(t, v, "daily_note", `{"date":"yesterday"}`); !strings.Contains(out, "2024-05-05 Sunday.md") {
				t.Errorf("yesterday:\n%s", out)
			}
			if out := mustCall(t, v, "query_notes", `{"folder":"Journal/Daily"}`); !strings.Contains(out, "2 notes match") {
				t.Errorf("the daily notes are not in the index:\n%s", out)
			}

			out = mustCall(t, v, "create_note", `{"path":"Meetings/周会","template":"Meeting","content":"议程。"}`)
			if got, want := readFile(t, tv, "Meetings/周会.md"), "# 周会\n日期：2024年05月06日\n议程。\n"; got != want {
				t.Errorf("a note from a template: %q, want %q (%s)", got, want, out)
			}
			if _, err := call(t, v, envNone, "create_note", `{"path":"x","template":"Nope"}`); err == nil || !strings.Contains(err.Error(), "no template") {
				t.Errorf("an unknown template: %v", err)
			}
			if _, err := call(t, v, envNone, "daily_note", `{"date":"May 6"}`); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
				t.Errorf("a bad date: %v", err)
			}
		})
	}
}

// Without Obsidian's settings a daily note is YYYY-MM-DD.md at the root,
// empty.
func TestDailyNote_Defaults(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	v.now = func() time.Time { return time.Date(2024, 12, 31, 23, 59, 0, 0, time.Local) }
	out := mustCall(t, v, "daily_note", `{"date":"tomorrow"}`)
	if !strings.Contains(out, "created the daily note 2025-01-01.md, empty") {
		t.Errorf("result: %s", out)
	}
	if got := readFile(t, tv, "2025-01-01.md"); got != "" {
		t.Errorf("the daily note: %q", got)
	}
}
