package vault

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"hermes/backend/toolbox"
)

func TestGetProperties_Types(t *testing.T) {
	text := "---\n# a comment\ntitle: Plan\ncount: 3\nratio: 0.5\ndone: true\ndue: 2024-05-01\nat: 2024-05-01T09:30:00\n" +
		"tags: [a, \"b c\"]\naliases:\n  - 首页\n  - Home\ncode: \"123\"\nempty:\nlink: \"[[Plan]]\"\nnote: x # trailing\n---\nBody\n"
	got := map[string]Property{}
	var order []string
	for _, p := range noteProperties(text, map[string]string{"code": "text"}) {
		got[p.Name] = p
		order = append(order, p.Name)
	}
	want := map[string]Property{
		"title": {"title", "text", "Plan"}, "count": {"count", "number", 3.0}, "ratio": {"ratio", "number", 0.5},
		"done": {"done", "checkbox", true}, "due": {"due", "date", "2024-05-01"}, "at": {"at", "datetime", "2024-05-01T09:30:00"},
		"tags": {"tags", "list", []string{"a", "b c"}}, "aliases": {"aliases", "list", []string{"首页", "Home"}},
		"code": {"code", "text", "123"}, "empty": {"empty", "", nil}, "link": {"link", "text", "[[Plan]]"}, "note": {"note", "text", "x"},
	}
	if !reflect.DeepEqual(got, want) {
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s = %#v, want %#v", k, got[k], want[k])
			}
		}
	}
	if order[0] != "title" || order[len(order)-1] != "note" {
		t.Errorf("order %v", order)
	}
}

func TestSetProperty_Cases(t *testing.T) {
	const note = "---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus: draft\n---\n# Plan\n"
	tests := []struct {
		name, text, key string
		value           any
		remove          bool
		want            string
	}{
		{"change a scalar", note, "status", "done", false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus: done\n---\n# Plan\n"},
		{"a list replaced as Obsidian writes it", note, "tags", []any{"x", "y z"}, false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n  - x\n  - y z\nstatus: draft\n---\n# Plan\n"},
		{"a new key at the end", note, "due", "2024-05-01", false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus: draft\ndue: 2024-05-01\n---\n# Plan\n"},
		{"numbers and checkboxes", note, "count", 2.0, false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus: draft\ncount: 2\n---\n# Plan\n"},
		{"text that would read as another type is quoted", note, "title", "true", false,
			"---\n# kept comment\ntitle: \"true\"\ntags:\n- a\n- b\nstatus: draft\n---\n# Plan\n"},
		{"a link is quoted", note, "related", "[[Beta]]", false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus: draft\nrelated: \"[[Beta]]\"\n---\n# Plan\n"},
		{"remove", note, "tags", nil, true,
			"---\n# kept comment\ntitle: Plan   # why\nstatus: draft\n---\n# Plan\n"},
		{"no front matter yet", "# Plan\n", "status", "draft", false, "---\nstatus: draft\n---\n# Plan\n"},
		{"the last key removed takes the front matter", "---\nstatus: x\n---\n# Plan\n", "status", nil, true, "# Plan\n"},
		{"CRLF", "---\r\ntitle: Plan\r\n---\r\nBody\r\n", "tags", []any{"a"}, false, "---\r\ntitle: Plan\r\ntags:\r\n  - a\r\n---\r\nBody\r\n"},
		{"a string for a list key", note, "tags", "solo", false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n  - solo\nstatus: draft\n---\n# Plan\n"},
		{"null", note, "status", nil, false,
			"---\n# kept comment\ntitle: Plan   # why\ntags:\n- a\n- b\nstatus:\n---\n# Plan\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := setProperty(tt.text, tt.key, tt.value, tt.remove, strings.Contains(tt.text, "\r\n"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	if _, err := setProperty(note, "nope", nil, true, false, nil); err == nil || !strings.Contains(err.Error(), "get_properties") {
		t.Errorf("removing a key that is not there: %v", err)
	}
	if _, err := setProperty(note, "x", map[string]any{"a": 1.0}, false, false, nil); err == nil || !strings.Contains(err.Error(), "not an object") {
		t.Errorf("an object: %v", err)
	}
}

// Every note of the help vault, in both languages: a property added and
// each existing one set to a new value changes that key's lines alone and
// reads back as set, and removing the added one gives back the note byte
// for byte. The edit itself is checked on every note (it writes nothing);
// the tool, which writes and syncs each note, on a few.
func TestSetProperty_RoundTripsHelpVault(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			tv := helpVault(t, lang)
			notes := helpNotes(t, tv)
			withFront := 0
			for _, p := range notes {
				orig := readFile(t, tv, p)
				props := noteProperties(orig, nil)
				if len(props) > 0 {
					withFront++
				}
				added, err := setProperty(orig, "hermes-checked", []any{"已读", "done"}, false, false, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := noteProperties(added, nil)
				if last := got[len(got)-1]; last.Name != "hermes-checked" || !reflect.DeepEqual(last.Value, []string{"已读", "done"}) {
					t.Fatalf("%s: the property added reads back as %#v", p, last)
				}
				if !reflect.DeepEqual(got[:len(got)-1], props) {
					t.Fatalf("%s: the other properties changed:\n%#v\n%#v", p, got[:len(got)-1], props)
				}
				text := added
				for _, pr := range props {
					after, err := setProperty(text, pr.Name, "新的 value", false, false, nil)
					if err != nil {
						t.Fatal(err)
					}
					if d := outsideKey(text, after, pr.Name); d != "" {
						t.Fatalf("%s: setting %s changed other lines: %s", p, pr.Name, d)
					}
					if got := noteProperties(after, nil); !slices.ContainsFunc(got, func(q Property) bool { return q.Name == pr.Name && reflect.DeepEqual(q.Value, "新的 value") }) && pr.Type != "list" {
						t.Fatalf("%s: %s does not read back as set: %#v", p, pr.Name, got)
					}
					text = after
				}
				back, err := setProperty(added, "hermes-checked", nil, true, false, nil)
				if err != nil {
					t.Fatal(err)
				}
				if back != orig {
					t.Fatalf("%s: adding then removing a property did not give the note back:\n%s", p, lineDiff(orig, back))
				}
			}
			want := 0
			for _, p := range notes {
				if front, ok := rawFront(readFile(t, tv, p)); ok && len(rawKeys(front)) > 0 {
					want++
				}
			}
			if withFront != want || want < len(notes)/2 {
				t.Errorf("%d of %d notes read with properties, %d have keys in their front matter", withFront, len(notes), want)
			}
			v := tv.open(t, false)
			for _, p := range notes[:min(8, len(notes))] {
				orig := readFile(t, tv, p)
				mustCall(t, v, "set_property", `{"path":`+quote(p)+`,"name":"hermes-checked","value":true}`)
				if got := readFile(t, tv, p); got == orig || !strings.Contains(got, "\nhermes-checked: true\n") {
					t.Fatalf("%s: set_property did not add the property", p)
				}
				mustCall(t, v, "set_property", `{"path":`+quote(p)+`,"name":"hermes-checked","remove":true}`)
				if got := readFile(t, tv, p); got != orig {
					t.Fatalf("%s: not the same bytes after add and remove:\n%s", p, lineDiff(orig, got))
				}
			}
		})
	}
}

// outsideKey says how two texts differ outside the lines of key, "" when
// they do not.
func outsideKey(before, after, key string) string {
	strip := func(text string) string {
		lines := strings.Split(text, "\n")
		open, close, ok := frontBounds(lines)
		if !ok {
			return text
		}
		for _, b := range propBlocks(lines, open, close) {
			if b.name == key {
				return strings.Join(append(lines[:b.from:b.from], lines[b.to:]...), "\n")
			}
		}
		return text
	}
	if a, b := strip(before), strip(after); a != b {
		return lineDiff(a, b)
	}
	return ""
}

func TestSetProperty_KeepsTheRestAndTheUndoCopy(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "p1"}
	out, err := call(t, v, env, "set_property", `{"path":"Welcome","name":"status","value":"doing"}`)
	if err != nil {
		t.Fatal(err)
	}
	if w := containsAll(out, "property status changed", "status: done → doing", "artifacts/run1/p1.before"); w != "" {
		t.Errorf("result lacks %q: %s", w, out)
	}
	if out := mustCall(t, v, "get_properties", `{"path":"[[Welcome]]"}`); containsAll(out, "status (text): doing", "aliases (list): [\"Home\",\"首页\"]", "tags (list)") != "" {
		t.Errorf("get_properties:\n%s", out)
	}
	// The index sees the change at once.
	if out := mustCall(t, v, "query_notes", `{"property":{"status":"doing"}}`); !strings.Contains(out, "Welcome.md") {
		t.Errorf("query after set_property:\n%s", out)
	}
	// A GBK note with CRLF stays GBK with CRLF.
	mustCall(t, v, "set_property", `{"path":"中文/机器学习.md","name":"状态","value":"完成"}`)
	if got := readFile(t, tv, "中文/机器学习.md"); got != string(gbk(t, "---\r\n状态: 完成\r\n---\r\n# 机器学习\r\n\r\n## 梯度下降\r\n\r\n梯度下降是一种优化方法。#学习\r\n\r\n## 参考\r\n\r\n见 [[Welcome]]。\r\n")) {
		t.Errorf("the GBK note: %q", got)
	}
}

// A key with no value that gets one is changed, not added; the change says
// which keys are added and removed.
func TestPropertyChanges(t *testing.T) {
	got := propertyChanges("---\nx:\ny: 1\nz: a\n---\n", "---\nx: 2\nz: a\nw: [b]\n---\n")
	want := []PropertyChange{
		{Name: "x", After: 2.0},
		{Name: "y", Before: 1.0, Removed: true},
		{Name: "w", After: []string{"b"}, Added: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}
