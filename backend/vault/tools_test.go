package vault

import (
	"strings"
	"testing"
)

func TestOpen_IndexesNotesOnly(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	for _, p := range []string{"Welcome.md", "Projects/Alpha.md", "中文/机器学习.md", "中文/日记.md", "utf16be.md", "bom.md"} {
		if _, ok := v.Note(p); !ok {
			t.Errorf("%s is not indexed", p)
		}
	}
	for _, p := range []string{".obsidian/workspace.md", ".trash/Deleted.md", ".git/notes.md", "node_modules/pkg/README.md", "leak.md", "Projects/up.md", "attachments/data.txt"} {
		if _, ok := v.Note(p); ok {
			t.Errorf("%s is indexed", p)
		}
	}
	for p, enc := range map[string]Encoding{"中文/机器学习.md": GB18030, "中文/日记.md": UTF16LE, "utf16be.md": UTF16BE, "bom.md": UTF8BOM, "Welcome.md": UTF8} {
		if n, _ := v.Note(p); n.Encoding != enc {
			t.Errorf("%s: encoding %s, want %s", p, n.Encoding, enc)
		}
	}
}

func TestSearchNotes(t *testing.T) {
	v := makeVault(t).open(t, false)
	tests := []struct {
		name, args string
		want       []string // in the result, in order
		not        []string
	}{
		{"english, ranked with snippet", `{"query":"alpha pipeline"}`,
			[]string{`1. Projects/Alpha.md — Alpha`, "tags: #project/alpha", "Alpha is a pipeline written in Go."}, nil},
		{"chinese in a GBK note", `{"query":"梯度下降"}`, []string{"中文/机器学习.md", "梯度下降是一种优化方法。"}, nil},
		{"chinese in a UTF-16 note", `{"query":"向量数据库"}`, []string{"中文/日记.md"}, nil},
		{"utf-16be and bom notes", `{"query":"kangaroos wombats"}`, []string{"utf16be.md", "bom.md"}, nil},
		{"alias in the title field", `{"query":"首页"}`, []string{"1. Welcome.md"}, nil},
		{"tag filter finds nested tags", `{"tag":"#project"}`, []string{"Projects/Alpha.md", "Projects/Beta.md"}, []string{"Welcome.md"}},
		{"folder filter", `{"query":"alpha","folder":"Archive"}`, []string{"1 note matches \"alpha\", in Archive:", "Archive/Projects/Alpha.md", "The archived alpha plan."}, []string{"\n2."}},
		{"property filter", `{"properties":{"status":"doing"}}`, []string{"Projects/Beta.md"}, []string{"Welcome.md"}},
		{"decoys are never read", `{"query":"` + decoy + `"}`, []string{"No note matches"}, []string{".obsidian", ".trash"}},
		{"links out are never read", `{"query":"` + secret + `"}`, []string{"No note matches"}, nil},
		{"limit", `{"query":"alpha","limit":1}`, []string{"1 of 4 notes that match \"alpha\", best first:", "3 notes more not shown"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustCall(t, v, "search_notes", tt.args)
			at := 0
			for _, w := range tt.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("result lacks %q (in order):\n%s", w, out)
				}
				at += i + len(w)
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("result holds %q:\n%s", n, out)
				}
			}
		})
	}
	if _, err := call(t, v, envNone, "search_notes", `{}`); err == nil || !strings.Contains(err.Error(), "give a query") {
		t.Errorf("empty search: %v", err)
	}
}

func TestReadNote(t *testing.T) {
	v := makeVault(t).open(t, false)
	tests := []struct {
		name, args string
		want       []string
		not        []string
	}{
		{"by path", `{"note":"Projects/Beta.md"}`, []string{"[Projects/Beta.md · tags: #project #draft]", "Beta depends on"}, nil},
		{"without .md", `{"note":"Projects/Beta"}`, []string{"Beta depends on"}, nil},
		{"by name, shortest path wins", `{"note":"Alpha"}`, []string{"[Projects/Alpha.md", "pipeline"}, []string{"archived"}},
		{"partial path", `{"note":"[[projects/alpha]]"}`, []string{"[Projects/Alpha.md"}, nil},
		{"full path of the longer one", `{"note":"Archive/Projects/Alpha"}`, []string{"archived alpha plan"}, nil},
		{"wikilink with heading and alias", `{"note":"[[Alpha#Goals|the goals]]"}`, []string{`section "Goals"`, "## Goals", "quarterly report", "### Details"}, []string{"## Notes", "pipeline"}},
		{"heading argument", `{"note":"Projects/Alpha.md","heading":"notes"}`, []string{"## Notes", "Back to [[Welcome]]"}, []string{"Goals"}},
		{"alias", `{"note":"[[home]]"}`, []string{"[Welcome.md", "aliases: Home, 首页", "title: Welcome home"}, nil},
		{"gbk note, decoded", `{"note":"机器学习","heading":"梯度下降"}`, []string{"## 梯度下降\n\n梯度下降是一种优化方法。#学习"}, []string{"\r"}},
		{"utf-16 note", `{"note":"中文/日记.md"}`, []string{"今天读了关于向量数据库的文章。"}, nil},
		{"symlink inside the vault", `{"note":"attachments/data-link.txt"}`, []string{"not a note"}, nil},
		{"another text file", `{"note":"attachments/data.txt"}`, []string{"not a note"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustCall(t, v, "read_note", tt.args)
			if w := containsAll(out, tt.want...); w != "" {
				t.Errorf("result lacks %q:\n%s", w, out)
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("result holds %q:\n%s", n, out)
				}
			}
		})
	}
	for args, want := range map[string]string{
		`{"note":"Nope"}`:                          "there is no note Nope",
		`{"note":"Alpha","heading":"Missing"}`:     "its headings are: # Alpha; ## Goals; ### Details; ## Notes",
		`{"note":"Projects/Beta","heading":"Any"}`: "has no headings",
	} {
		if _, err := call(t, v, envNone, "read_note", args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("read_note %s: %v, want %q", args, err, want)
		}
	}
}

func TestListNotes(t *testing.T) {
	v := makeVault(t).open(t, false)
	out := mustCall(t, v, "list_notes", `{}`)
	want := "3 notes and 3 folders in the vault root:\nArchive/ (1 note)\nbom.md\nProjects/ (2 notes)\nutf16be.md\nWelcome.md\n中文/ (2 notes)"
	if out != want {
		t.Errorf("root:\n%s\nwant:\n%s", out, want)
	}
	out = mustCall(t, v, "list_notes", `{"folder":"Archive","depth":3}`)
	if want := "1 note and 1 folder in Archive:\nArchive/Projects/ (1 note)\nArchive/Projects/Alpha.md"; out != want {
		t.Errorf("archive:\n%s\nwant:\n%s", out, want)
	}
	if out := mustCall(t, v, "list_notes", `{"limit":2}`); !strings.Contains(out, "… 4 more lines not shown") {
		t.Errorf("limit:\n%s", out)
	}
	for args, want := range map[string]string{
		`{"folder":"Nope"}`:      "there is no folder Nope",
		`{"folder":".obsidian"}`: "never read",
		`{"folder":"leakdir"}`:   "outside the vault",
	} {
		if _, err := call(t, v, envNone, "list_notes", args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("list_notes %s: %v, want %q", args, err, want)
		}
	}
}

func TestBacklinks(t *testing.T) {
	v := makeVault(t).open(t, false)
	out := mustCall(t, v, "get_backlinks", `{"note":"Projects/Alpha.md"}`)
	want := "3 links to Projects/Alpha.md:\nProjects/Beta.md:5: Beta depends on [Alpha](Alpha.md) and [[Alpha#Goals]].\n" +
		"Projects/Beta.md:5: Beta depends on [Alpha](Alpha.md) and [[Alpha#Goals]].\nWelcome.md:11: Start with [[Projects/Alpha]] and [[Beta|the beta project]]."
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	out = mustCall(t, v, "get_backlinks", `{"note":"[[Welcome]]"}`)
	if w := containsAll(out, "Projects/Alpha.md:", "中文/机器学习.md:9: 见 [[Welcome]]。"); w != "" {
		t.Errorf("backlinks of Welcome lack %q:\n%s", w, out)
	}
	if out := mustCall(t, v, "get_backlinks", `{"note":"Archive/Projects/Alpha.md"}`); out != "No note links to Archive/Projects/Alpha.md." {
		t.Errorf("archived alpha: %s", out)
	}
}

func TestListTags(t *testing.T) {
	v := makeVault(t).open(t, false)
	out := mustCall(t, v, "list_tags", `{}`)
	want := "8 tags:\n#project (2 notes)\n#draft (1 note)\n#intro (1 note)\n#meta (1 note)\n#meta/start (1 note)\n" +
		"#project/alpha (1 note)\n#学习 (1 note)\n#日记 (1 note)"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	for _, not := range []string{"#123", "notatag", "nottag"} {
		if strings.Contains(out, not) {
			t.Errorf("%s listed:\n%s", not, out)
		}
	}
	if out := mustCall(t, v, "list_tags", `{"prefix":"#project"}`); out != "2 tags:\n#project (2 notes)\n#project/alpha (1 note)" {
		t.Errorf("prefix:\n%s", out)
	}
}
