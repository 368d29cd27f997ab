package vault

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/unicode"

	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

func TestAppendNote_KeepsEncodingAndLineEndings(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "c1"}
	tests := []struct {
		name, note, content, heading string
		want                         []byte
		result                       string
	}{
		{"gbk with crlf", "中文/机器学习.md", "总结：收敛。", "",
			gbk(t, "# 机器学习\r\n\r\n## 梯度下降\r\n\r\n梯度下降是一种优化方法。#学习\r\n\r\n## 参考\r\n\r\n见 [[Welcome]]。\r\n总结：收敛。\r\n"),
			"gb18030, CRLF line endings"},
		{"utf-16le", "[[日记]]", "明天继续。\n", "",
			utf16(t, "# 日记\n\n今天读了关于向量数据库的文章。#日记\n明天继续。\n", unicode.LittleEndian), "utf-16le"},
		{"utf-8 bom, no final newline before", "bom.md", "- more", "",
			append([]byte{0xEF, 0xBB, 0xBF}, "A note with a byte-order mark about wombats.\n- more\n"...), "utf-8-bom"},
		{"into a section", "Projects/Alpha.md", "- [ ] review", "Goals",
			[]byte("# Alpha\n\nAlpha is a pipeline written in Go. #project/alpha #123\n\n## Goals\n\nShip the quarterly report.\n\n### Details\n\nMore detail.\n- [ ] review\n\n## Notes\n\n" +
				"```go\n// #notatag [[NotALink]]\n```\n\nUse `#nottag` and `[[NotALinkEither]]` inline. Back to [[Welcome]].\n"), "section \"Goals\""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env.CallID = "c" + string(rune('0'+i))
			p, _, err := v.findNote(tt.note)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(filepath.Join(tv.dir, p))
			args := `{"note":` + quote(tt.note) + `,"content":` + quote(tt.content) + `,"heading":` + quote(tt.heading) + `}`
			out, err := call(t, v, env, "append_note", args)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(tv.dir, p))
			if !bytes.Equal(got, tt.want) {
				t.Errorf("on disk:\n%q\nwant:\n%q", got, tt.want)
			}
			ref := "artifacts/run1/" + env.CallID + ".before"
			if w := containsAll(out, tt.result, ref); w != "" {
				t.Errorf("result lacks %q: %s", w, out)
			}
			kept, _, err := runlog.ReadArtifact(tv.home, ref, 0, 0)
			if err != nil || !bytes.Equal(kept, before) {
				t.Errorf("artifact = %q, %v; want the previous content", kept, err)
			}
		})
	}
	if out := mustCall(t, v, "search_notes", `{"query":"收敛"}`); !strings.Contains(out, "中文/机器学习.md") {
		t.Errorf("the appended text is not searchable at once:\n%s", out)
	}
	for args, want := range map[string]string{
		`{"note":"New.md","content":"x"}`:                            "there is no note New.md",
		`{"note":"attachments/data.txt","content":"x"}`:              "not a Markdown note",
		`{"note":"Projects/Beta.md","content":"x","heading":"Nope"}`: "has no heading",
	} {
		if _, err := call(t, v, env, "append_note", args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("append_note %s: %v, want %q", args, err, want)
		}
	}
}

func TestAppendNote_RefusesUnknownEncoding(t *testing.T) {
	tv := makeVault(t)
	raw := []byte{'A', ' ', 0xFF, 0x80, 0xFF, '\n'}
	write(t, filepath.Join(tv.dir, "odd.md"), raw)
	v := tv.open(t, false)
	if _, err := call(t, v, envNone, "append_note", `{"note":"odd.md","content":"x"}`); err == nil || !strings.Contains(err.Error(), "encoding") {
		t.Errorf("append to an unknown encoding: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(tv.dir, "odd.md")); !bytes.Equal(got, raw) {
		t.Errorf("the note changed: %q", got)
	}
}

func TestCreateNote(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	out := mustCall(t, v, "create_note", `{"path":"Inbox/新想法","content":"# 新想法\n\nA zebra idea."}`)
	if !strings.Contains(out, "created Inbox/新想法.md") || !strings.Contains(out, "[[新想法]]") {
		t.Errorf("result: %s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(tv.dir, "Inbox", "新想法.md")); string(got) != "# 新想法\n\nA zebra idea.\n" {
		t.Errorf("on disk: %q", got)
	}
	if out := mustCall(t, v, "search_notes", `{"query":"zebra"}`); !strings.Contains(out, "Inbox/新想法.md") {
		t.Errorf("the new note is not searchable at once:\n%s", out)
	}
	for args, want := range map[string]string{
		`{"path":"Welcome.md","content":"x"}`:   "already exists",
		`{"path":"Inbox/新想法","content":"x"}`:    "already exists",
		`{"path":"a|b","content":"x"}`:          "cannot be a note name",
		`{"path":"","content":"x"}`:             "give the new note a path",
		`{"path":"leakdir/x.md","content":"x"}`: "outside the vault",
	} {
		if _, err := call(t, v, envNone, "create_note", args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("create_note %s: %v, want %q", args, err, want)
		}
	}
}

// A model that names every call "call_0" must not lose a note's original:
// each append keeps its own undo copy, and its result names that copy.
func TestAppendNote_ReusedCallIDKeepsEveryOriginal(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "call_0"}
	original, err := os.ReadFile(filepath.Join(tv.dir, "Projects", "Beta.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{original, append(original, "first\n"...)}
	var refs []string
	for _, content := range []string{"first", "second"} {
		out, err := call(t, v, env, "append_note", `{"note":"Projects/Beta.md","content":"`+content+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		_, ref, ok := strings.Cut(out, "its previous content is kept in ")
		if !ok {
			t.Fatalf("the result names no undo copy: %s", out)
		}
		refs = append(refs, strings.Fields(ref)[0])
	}
	if refs[0] == refs[1] {
		t.Fatalf("both appends name the undo copy %s", refs[0])
	}
	for i, ref := range refs {
		kept, _, err := runlog.ReadArtifact(tv.home, ref, 0, 0)
		if err != nil || !bytes.Equal(kept, want[i]) {
			t.Errorf("undo copy %d (%s) = %q, %v; want %q", i+1, ref, kept, err, want[i])
		}
	}
}
