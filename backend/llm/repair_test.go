package llm_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hermes/backend/llm"
)

func TestRepairJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" with wantErr
		// repaired is true for every case that is not valid JSON already.
		wantErr bool
	}{
		{name: "valid object unchanged", in: `{"path": "a.txt", "n": 2}`, want: `{"path": "a.txt", "n": 2}`},
		{name: "valid array unchanged", in: "[1, 2,\n 3]", want: "[1, 2,\n 3]"},
		{name: "valid scalar unchanged", in: `"just text"`, want: `"just text"`},
		{name: "prose around an object", in: `Sure! Here are the arguments: {"path": "a.txt"} Let me know.`, want: `{"path":"a.txt"}`},
		{name: "json fence", in: "```json\n{\"path\": \"a.txt\", \"limit\": 10}\n```", want: `{"path":"a.txt","limit":10}`},
		{name: "bare fence with prose", in: "I'll call it:\n```\n{\"path\": \"a.txt\"}\n```\nDone.", want: `{"path":"a.txt"}`},
		{name: "fence on one line", in: "```{\"a\":1,}```", want: `{"a":1}`},
		{name: "fence left open and brace missing", in: "```json\n{\"path\": \"a.txt\"\n", want: `{"path":"a.txt"}`},
		{name: "trailing commas", in: `{"a": [1, 2, 3,], "b": {"c": true,},}`, want: `{"a":[1,2,3],"b":{"c":true}}`},
		{name: "doubled single quotes are no escape", in: `{'path': 'it''s'}`, wantErr: true},
		{name: "single quotes with escapes", in: `{'path': 'don\'t', 'q': 'say "hi"'}`, want: `{"path":"don't","q":"say \"hi\""}`},
		{name: "unquoted keys", in: `{path: "a.txt", max_bytes: 10, $ref: "x", "ok": 1}`, want: `{"path":"a.txt","max_bytes":10,"$ref":"x","ok":1}`},
		{name: "unicode unquoted key", in: `{路径: "笔记.md"}`, want: `{"路径":"笔记.md"}`},
		{name: "python literals", in: `{"recursive": True, "hidden": False, "limit": None}`, want: `{"recursive":true,"hidden":false,"limit":null}`},
		{name: "missing closing brace", in: `{"path": "a.txt", "opts": {"depth": 2`, want: `{"path":"a.txt","opts":{"depth":2}}`},
		{name: "missing closing bracket", in: `{"files": ["a", "b"`, want: `{"files":["a","b"]}`},
		{name: "comma then the end", in: `{"a": 1,`, want: `{"a":1}`},
		{name: "windows path escapes kept", in: `{"path": "C:\Users\me\notes.txt",}`, want: `{"path":"C:\\Users\\me\notes.txt"}`},
		{name: "raw newline in a string", in: "{\"text\": \"line one\nline two\",}", want: `{"text":"line one\nline two"}`},
		{name: "unicode escapes and a surrogate pair", in: `{"s": "\u00e9\ud83d\ude00",}`, want: `{"s":"é😀"}`},
		{name: "numbers kept as written", in: `{"a": -1.5e3, "b": 0, "c": 10,}`, want: `{"a":-1.5e3,"b":0,"c":10}`},
		{name: "an earlier bracket in prose is skipped", in: `See [the docs] then {"a": 1,}`, want: `{"a":1}`},
		{name: "top-level array repaired", in: `[{'a': 1}, {'b': 2},]`, want: `[{"a":1},{"b":2}]`},
		{name: "line comments", in: "{\"path\": \"a.txt\", // the file\n \"n\": 2 // lines\n}", want: `{"path":"a.txt","n":2}`},
		{name: "block comments", in: `{/* args */ "path": /* the file */ "a.txt"}`, want: `{"path":"a.txt"}`},
		{name: "comment left open", in: `{"path": "a.txt" /* then`, want: `{"path":"a.txt"}`},
		{name: "slashes inside a string are no comment", in: `{"url": "https://x.test/a//b", /* c */}`, want: `{"url":"https://x.test/a//b"}`},
		{name: "typographic quotes", in: `{“path”: “a.txt”, “n”: 2}`, want: `{"path":"a.txt","n":2}`},
		{name: "typographic quotes around an apostrophe and a plain quote", in: `{“text”: “it’s "so"”}`, want: `{"text":"it’s \"so\""}`},
		{name: "byte order mark", in: "\ufeff{\"path\": \"a.txt\"}", want: `{"path":"a.txt"}`},
		{name: "non-breaking and ideographic spaces", in: "{\"path\":\u00a0\"a.txt\",\u3000\"n\": 1}", want: `{"path":"a.txt","n":1}`},
		{name: "no JSON at all", in: "I cannot do that.", wantErr: true},
		{name: "empty", in: "", wantErr: true},
		{name: "missing comma", in: `{"a": 1 "b": 2}`, wantErr: true},
		{name: "missing value at the end", in: `{"a": `, wantErr: true},
		{name: "unterminated string", in: `{"a": "never closed`, wantErr: true},
		{name: "bare word value", in: `{"a": hello}`, wantErr: true},
		{name: "malformed number", in: `{"a": 01}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, repaired, err := llm.RepairJSON(tt.in)
			if tt.wantErr {
				if !errors.Is(err, llm.ErrUnrepairable) {
					t.Fatalf("RepairJSON(%q) = %q, %v, %v; want ErrUnrepairable", tt.in, got, repaired, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("RepairJSON(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("RepairJSON(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if wantRepaired := !json.Valid([]byte(tt.in)); repaired != wantRepaired {
				t.Errorf("repaired = %v, want %v", repaired, wantRepaired)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("result %q is not valid JSON", got)
			}
		})
	}
}

func TestRepairJSON_DeepNesting(t *testing.T) {
	_, _, err := llm.RepairJSON(strings.Repeat("[", 100000))
	if !errors.Is(err, llm.ErrUnrepairable) {
		t.Errorf("err = %v, want ErrUnrepairable for nesting past the limit", err)
	}
	got, repaired, err := llm.RepairJSON(strings.Repeat("[", 50))
	if err != nil || !repaired || got != strings.Repeat("[", 50)+strings.Repeat("]", 50) {
		t.Errorf("RepairJSON(50 × '[') = %q, %v, %v; want them closed", got, repaired, err)
	}
}

func FuzzRepairJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`, `{'a': 'b',}`, "```json\n{a: True}\n```", `text {"a": [1, 2`, `{"s": "\ud83d"}`,
		`{"a": "C:\x"}`, `[[[`, `{"a":-0.5e-3}`, `{,}`, "{\"\x00\": 1}", "\xff{\"a\":\"\xfe\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, repaired, err := llm.RepairJSON(in)
		if json.Valid([]byte(in)) {
			if got != in || repaired || err != nil {
				t.Fatalf("valid input %q came back as %q, %v, %v", in, got, repaired, err)
			}
			return
		}
		if err != nil {
			if !errors.Is(err, llm.ErrUnrepairable) {
				t.Fatalf("error %v does not wrap ErrUnrepairable", err)
			}
			return
		}
		if !repaired || !json.Valid([]byte(got)) {
			t.Fatalf("RepairJSON(%q) = %q, repaired %v: not valid JSON or not marked", in, got, repaired)
		}
	})
}
