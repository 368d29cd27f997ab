package vault

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// helpCase names the same notes and headings in the English and the
// Chinese help vault.
type helpCase struct {
	lang, props, links                      string // the Properties and Internal links notes
	format, list, number, advanced, hotkeys string // headings of Properties
	selectProps                             string
}

var helpCases = []helpCase{
	{"en", "Editing and formatting/Properties.md", "Linking notes and files/Internal links.md",
		"Property format", "List", "Number", "Advanced uses", "Hotkeys", "Select properties"},
	{"zh", "编辑与格式化/属性.md", "链接笔记与文件/内部链接.md",
		"属性格式", "列表", "数字", "高级用法", "快捷键", "选择属性"},
}

func readFile(t testing.TB, tv testVault, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tv.dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadNote_SectionsAndBlocks(t *testing.T) {
	for _, hc := range helpCases {
		t.Run(hc.lang, func(t *testing.T) {
			tv := helpVault(t, hc.lang)
			v := tv.open(t, false)
			name := strings.TrimSuffix(filepath.Base(hc.props), ".md")
			// A heading under another, as [[Note#A#B]] names it.
			out := mustCall(t, v, "read_note", `{"note":`+quote(name+"#"+hc.format+"#"+hc.list)+`}`)
			if !strings.Contains(out, "### "+hc.list+"\n") || strings.Contains(out, "### "+hc.number) {
				t.Errorf("read_note %s#%s#%s:\n%s", name, hc.format, hc.list, out)
			}
			out = mustCall(t, v, "read_note", `{"note":`+quote("[["+name+"#"+hc.advanced+"|x]]")+`}`)
			if !strings.Contains(out, "## "+hc.advanced) || strings.Contains(out, "## "+hc.hotkeys) {
				t.Errorf("read_note %s#%s:\n%s", name, hc.advanced, out)
			}
			links := strings.TrimSuffix(filepath.Base(hc.links), ".md")
			out = mustCall(t, v, "read_note", `{"note":`+quote(links+"#^b15695")+`}`)
			if got := strings.SplitN(out, "\n", 2)[1]; strings.Count(got, "\n") != 0 || !strings.HasSuffix(got, "^b15695") {
				t.Errorf("read_note %s#^b15695 gave more or less than the paragraph:\n%s", links, out)
			}
			// A marker on a line of its own marks the list above it.
			out = mustCall(t, v, "read_note", `{"note":`+quote(links)+`,"block":"callout-internal-links-link-text"}`)
			body := strings.SplitN(out, "\n", 2)[1]
			if !strings.HasPrefix(body, "> [!") || !strings.HasSuffix(body, "\n^callout-internal-links-link-text") || strings.Contains(body, "\n\n") {
				t.Errorf("read_note the callout marked on a line of its own:\n%s", out)
			}
			_, err := call(t, v, envNone, "read_note", `{"note":`+quote(name)+`,"heading":"Nope"}`)
			if err == nil || !strings.Contains(err.Error(), "## "+hc.format) || !strings.Contains(err.Error(), "### "+hc.list) {
				t.Errorf("an unknown heading: %v; want the headings listed", err)
			}
			_, err = call(t, v, envNone, "read_note", `{"note":`+quote(links+"#^nope")+`}`)
			if err == nil || !strings.Contains(err.Error(), "^b15695") || strings.Contains(err.Error(), "^37066f") {
				t.Errorf("an unknown block: %v; want the blocks listed", err)
			}
		})
	}
}

func TestEditNote_NestedHeadings(t *testing.T) {
	for _, hc := range helpCases {
		t.Run(hc.lang, func(t *testing.T) {
			tv := helpVault(t, hc.lang)
			v := tv.open(t, false)
			env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "e1"}
			orig := readFile(t, tv, hc.props)

			// replace: the section under ### List (inside ## Property
			// format), up to ### Number; the heading stays.
			content := "Lists are written as `- item` lines.\n\n- [[属性]] one\n- two"
			out, err := call(t, v, env, "edit_note", `{"path":`+quote(hc.props)+`,"heading":`+quote(hc.format+"#"+hc.list)+`,"mode":"replace","content":`+quote(content)+`}`)
			if err != nil {
				t.Fatal(err)
			}
			a := strings.Index(orig, "### "+hc.list+"\n") + len("### "+hc.list+"\n")
			b := strings.Index(orig, "### "+hc.number)
			want := orig[:a] + "\n" + content + "\n\n" + orig[b:]
			if got := readFile(t, tv, hc.props); got != want {
				t.Errorf("replace:\n%s", lineDiff(want, got))
			}
			if !strings.Contains(out, "previous content kept in artifacts/run1/e1.before") || !strings.Contains(out, "link") {
				t.Errorf("result: %s", out)
			}
			if kept, _, err := runlog.ReadArtifact(tv.home, "artifacts/run1/e1.before", 0, 0); err != nil || string(kept) != orig {
				t.Errorf("the .before copy is not the note before: %v", err)
			}
			var c Change
			raw, _, err := runlog.ReadArtifact(tv.home, "artifacts/run1/e1.change.json", 0, 0)
			if err != nil || json.Unmarshal(raw, &c) != nil || len(c.Notes) != 1 || len(c.Notes[0].Links) != 2 || c.Notes[0].Links[0].After != "[[属性]]" || c.Notes[0].Links[1].After != "" {
				t.Errorf("change.json = %s, %v", raw, err)
			}

			// append: at the end of ## Advanced uses, after its ###
			// subsections, before the blank line above ## Hotkeys.
			orig = readFile(t, tv, hc.props)
			mustCall(t, v, "edit_note", `{"path":`+quote(hc.props)+`,"heading":`+quote(hc.advanced)+`,"mode":"append","content":"Appended.\n"}`)
			h := strings.Index(orig, "\n## "+hc.hotkeys)
			kept := strings.TrimRight(orig[:h], "\n")
			if got, want := readFile(t, tv, hc.props), kept+"\nAppended."+orig[len(kept):]; got != want {
				t.Errorf("append:\n%s", lineDiff(want, got))
			}

			// prepend: under the heading, after its blank line.
			orig = readFile(t, tv, hc.props)
			out = mustCall(t, v, "edit_note", `{"path":`+quote(hc.props)+`,"heading":`+quote(hc.selectProps)+`,"mode":"prepend","content":"#### New\nFirst."}`)
			at := strings.Index(orig, "### "+hc.selectProps+"\n\n") + len("### "+hc.selectProps+"\n\n")
			if got, want := readFile(t, tv, hc.props), orig[:at]+"#### New\nFirst.\n"+orig[at:]; got != want {
				t.Errorf("prepend:\n%s", lineDiff(want, got))
			}
			if !strings.Contains(out, `section "New" added`) {
				t.Errorf("the result does not say the section added: %s", out)
			}

			// A block keeps its id when replaced.
			orig = readFile(t, tv, hc.links)
			mustCall(t, v, "edit_note", `{"path":`+quote(hc.links)+`,"block":"^b15695","mode":"replace","content":"New paragraph."}`)
			end := strings.Index(orig, "^b15695")
			if end < 0 {
				t.Fatalf("no ^b15695 in %s", hc.links)
			}
			line := orig[strings.LastIndex(orig[:end], "\n")+1 : end+len("^b15695")]
			if got, want := readFile(t, tv, hc.links), strings.Replace(orig, line, "New paragraph. ^b15695", 1); got != want {
				t.Errorf("block replace:\n%s", lineDiff(want, got))
			}

			_, err = call(t, v, envNone, "edit_note", `{"path":`+quote(hc.props)+`,"heading":"Nope","mode":"append","content":"x"}`)
			if err == nil || !strings.Contains(err.Error(), "## "+hc.hotkeys) {
				t.Errorf("an unknown heading: %v; want the headings listed", err)
			}
		})
	}
}

// An edit of a note whose lines end both ways changes the lines it edits
// and no other byte.
func TestEditNote_MixedLineEndings(t *testing.T) {
	tv := testVault{dir: t.TempDir(), home: t.TempDir()}
	orig := "# A\r\n\r\nOne.\n\n## B\r\nTwo.\r\n\r\n## C\nThree.\n"
	write(t, filepath.Join(tv.dir, "Mixed.md"), []byte(orig))
	v := tv.open(t, false)
	mustCall(t, v, "edit_note", `{"path":"Mixed","heading":"B","mode":"append","content":"More."}`)
	want := "# A\r\n\r\nOne.\n\n## B\r\nTwo.\r\nMore.\r\n\r\n## C\nThree.\n"
	if got := readFile(t, tv, "Mixed.md"); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b || (i >= len(w)) != (i >= len(g)) {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + quote(a) + "\ngot  " + quote(b)
		}
	}
	return "(equal)"
}

// A folder's name may hold "#" (a note's may not): Note#Heading is cut at
// the "#" after the longest path that is a note.
func TestReadNote_HashInAFolderName(t *testing.T) {
	tv := testVault{dir: t.TempDir(), home: t.TempDir()}
	write(t, filepath.Join(tv.dir, "C#", "Notes.md"), []byte("# Notes\n\n## Generics\n\nType parameters.\n"))
	v := tv.open(t, false)
	for note, want := range map[string]string{
		"C#/Notes":              "[C#/Notes.md]",
		"C#/Notes.md":           "[C#/Notes.md]",
		"C#/Notes#Generics":     `section "Generics"`,
		"[[C#/Notes#Generics]]": `section "Generics"`,
	} {
		if out := mustCall(t, v, "read_note", `{"note":`+quote(note)+`}`); !strings.Contains(out, want) {
			t.Errorf("read_note %s:\n%s", note, out)
		}
	}
}
