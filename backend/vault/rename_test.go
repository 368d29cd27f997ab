package vault

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// renameCase is a note of the help vault renamed, with the names the
// linking notes use.
type renameCase struct {
	lang, path, newPath string
	heading, alias      string // a heading of the note; an alias of it
}

var renameCases = []renameCase{
	{"en", "Linking notes and files/Internal links.md", "Links/Internal links and embeds.md", "Link to a heading in a note", "How to/Internal link"},
	{"zh", "链接笔记与文件/内部链接.md", "链接/内部链接与嵌入.md", "链接到笔记中的标题", "Internal links"},
}

// linkingNotes are a dozen notes that link to the note of rc in every form
// Obsidian knows, each with what it must say after the rename ({old} and
// {new} stand for the note's name before and after). Links in code,
// through an alias and to other notes stay.
func linkingNotes(rc renameCase) map[string][2]string {
	esc := func(p string) string { return strings.ReplaceAll(p, " ", "%20") }
	full := func(p string) string {
		parts := strings.Split(p, "/")
		for i := range parts {
			parts[i] = url.PathEscape(parts[i])
		}
		return strings.Join(parts, "/")
	}
	h := rc.heading
	code := "```md\n[[{old}]] and ![[{old}#^b15695]]\n```\n"
	return map[string][2]string{
		"Test/01 plain.md":   {"See [[{old}]].\n", "See [[{new}]].\n"},
		"Test/02 embed.md":   {"![[{old}]]\n\nText after.\n", "![[{new}]]\n\nText after.\n"},
		"Test/03 heading.md": {"Go to [[{old}#" + h + "]] now.\n", "Go to [[{new}#" + h + "]] now.\n"},
		"Test/04 block.md":   {"Quote: ![[{old}#^b15695]]\n", "Quote: ![[{new}#^b15695]]\n"},
		"Test/05 alias.md":   {"An [[{old}|internal link]] and [[{old}#" + h + "|a heading]].\n", "An [[{new}|internal link]] and [[{new}#" + h + "|a heading]].\n"},
		"Test/06 table.md": {"| link | what |\n| --- | --- |\n| [[{old}\\|links]] | note |\n| [[{old}#^b15695\\|block]] | block |\n",
			"| link | what |\n| --- | --- |\n| [[{new}\\|links]] | note |\n| [[{new}#^b15695\\|block]] | block |\n"},
		"Test/07 markdown.md": {"[rel](../" + esc(rc.path) + ") and [anchored](../" + esc(rc.path) + "#" + esc(h) + ")\n",
			"[rel](../" + esc(rc.newPath) + ") and [anchored](../" + esc(rc.newPath) + "#" + esc(h) + ")\n"},
		"08 root markdown.md": {"[from the root](" + full(rc.path) + ")\n", "[from the root](" + full(rc.newPath) + ")\n"},
		// A wikilink by its path becomes the shortest, as Obsidian writes
		// it by default; one written from the root or relative stays so.
		"Test/09 path.md": {"By path: [[" + strings.TrimSuffix(rc.path, ".md") + "]], [[/" + strings.TrimSuffix(rc.path, ".md") + "#" + h + "]], [[../" + strings.TrimSuffix(rc.path, ".md") + "|rel]] and [[{old}.md]].\n",
			"By path: [[{new}]], [[/" + strings.TrimSuffix(rc.newPath, ".md") + "#" + h + "]], [[../" + strings.TrimSuffix(rc.newPath, ".md") + "|rel]] and [[{new}.md]].\n"},
		"Test/10 code.md": {"Inline `[[{old}]]` stays, [[{old}]] does not.\n" + code, "Inline `[[{old}]]` stays, [[{new}]] does not.\n" + code},
		"Test/11 front.md": {"---\nrelated: \"[[{old}]]\"\n# a comment\ntags: [a]\n---\nBody [[{lower}]].\n",
			"---\nrelated: \"[[{new}]]\"\n# a comment\ntags: [a]\n---\nBody [[{new}]].\n"},
		"Test/12 alias only.md": {"Through the alias: [[" + rc.alias + "]], and [[Aliases]] is another note.\n", "Through the alias: [[" + rc.alias + "]], and [[Aliases]] is another note.\n"},
		"Test/13 crlf.md":       {"Windows\r\n[[{old}]]\r\n", "Windows\r\n[[{new}]]\r\n"},
		// Markdown links without ".md", by name, between angle brackets,
		// from the root, with a title; in code they stay.
		"Test/14 markdown forms.md": {"[bare](../" + esc(strings.TrimSuffix(rc.path, ".md")) + ") [name]({oldesc}) [angle](<../" + rc.path + "#" + h + ">) " +
			"[root](/" + esc(rc.path) + ") [title](../" + esc(rc.path) + " \"t\") `[c](../" + esc(rc.path) + ")` [web](https://example.com/" + esc(rc.path) + ")\n",
			"[bare](../" + esc(strings.TrimSuffix(rc.newPath, ".md")) + ") [name]({newesc}) [angle](<../" + rc.newPath + "#" + h + ">) " +
				"[root](/" + esc(rc.newPath) + ") [title](../" + esc(rc.newPath) + " \"t\") `[c](../" + esc(rc.path) + ")` [web](https://example.com/" + esc(rc.path) + ")\n"},
	}
}

func fill(text, name, newName string) string {
	esc := func(s string) string { return strings.ReplaceAll(s, " ", "%20") }
	return strings.NewReplacer("{oldesc}", esc(name), "{newesc}", esc(newName), "{old}", name, "{new}", newName, "{lower}", strings.ToLower(name)).Replace(text)
}

// resolved is where each link of every note leads: note path and line
// and the link's place on it → the note it resolves to ("" when none).
func resolved(v *Vault) map[string]string {
	out := map[string]string{}
	v.rlockAll()
	defer v.mu.RUnlock()
	for p, n := range v.notes {
		for i, l := range n.Links {
			to, _ := v.names.resolve(l.Target, p)
			out[fmt.Sprintf("%s:%d:%d", p, l.Line, i)] = to
		}
	}
	return out
}

func TestRenameNote_HelpVault(t *testing.T) {
	for _, rc := range renameCases {
		t.Run(rc.lang, func(t *testing.T) {
			tv := helpVault(t, rc.lang)
			notes := linkingNotes(rc)
			name, newName := noteName(rc.path), noteName(rc.newPath)
			for p, texts := range notes {
				write(t, tv.dir+"/"+p, []byte(fill(texts[0], name, newName)))
			}
			v := tv.open(t, false)
			before := map[string]string{}
			for _, p := range helpNotes(t, tv) {
				before[p] = readFile(t, tv, p)
			}
			links := resolved(v)

			env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "r1"}
			out, err := call(t, v, env, "rename_note", `{"path":`+quote("[["+name+"]]")+`,"new_path":`+quote(rc.newPath)+`}`)
			if err != nil {
				t.Fatal(err)
			}

			// The dozen notes say exactly what they should.
			for p, texts := range notes {
				if got, want := readFile(t, tv, p), fill(texts[1], name, newName); got != want {
					t.Errorf("%s:\n%s", p, lineDiff(want, got))
				}
			}
			// Every other note: the same bytes, but for links to the note
			// renamed; and every link of the vault leads where it led.
			changed := 0
			for p, was := range before {
				now := p
				if p == rc.path {
					now = rc.newPath
				}
				got := readFile(t, tv, now)
				if got == was {
					continue
				}
				changed++
				if _, ours := notes[p]; ours {
					continue
				}
				w, g := strings.Split(was, "\n"), strings.Split(got, "\n")
				if len(w) != len(g) {
					t.Errorf("%s: the rename changed its number of lines", p)
					continue
				}
				for i := range w {
					if w[i] != g[i] && !strings.Contains(g[i], newName) && !strings.Contains(g[i], url.PathEscape(newName)) {
						t.Errorf("%s:%d changed without a link to the note:\n%q\n%q", p, i+1, w[i], g[i])
					}
				}
			}
			after := resolved(v)
			for k, to := range links {
				p, rest, _ := strings.Cut(k, ":")
				if p == rc.path {
					p = rc.newPath
				}
				if to == rc.path {
					to = rc.newPath
				}
				if got := after[p+":"+rest]; got != to {
					t.Errorf("the link at %s led to %q and now leads to %q", k, to, got)
				}
			}
			if len(after) != len(links) {
				t.Errorf("%d links before the rename, %d after", len(links), len(after))
			}
			if w := containsAll(out, "renamed", rc.newPath); w != "" {
				t.Errorf("result lacks %q: %s", w, out)
			}

			// The change lists every note it touched with its copy for Undo.
			var c Change
			raw, _, err := runlog.ReadArtifact(tv.home, "artifacts/run1/r1.change.json", 0, 0)
			if err != nil || json.Unmarshal(raw, &c) != nil {
				t.Fatalf("change.json: %v", err)
			}
			if len(c.Notes) != changed+1 && len(c.Notes) != changed {
				t.Errorf("the change lists %d notes, %d changed", len(c.Notes), changed)
			}
			for _, n := range c.Notes {
				kept, _, err := runlog.ReadArtifact(tv.home, n.BeforeRef, 0, 0)
				if err != nil || string(kept) != before[n.Path] {
					t.Errorf("%s: its copy for Undo (%s) is not what it was: %v", n.Path, n.BeforeRef, err)
				}
				if n.Path == rc.path && n.NewPath != rc.newPath {
					t.Errorf("the renamed note's change: %+v", n)
				}
			}
			if got := len(v.Backlinks(rc.newPath)); got < 12 {
				t.Errorf("%d backlinks to the renamed note, want the dozen and the vault's own", got)
			}
			if _, ok := v.Note(rc.path); ok {
				t.Errorf("the index still holds %s", rc.path)
			}
		})
	}
}

// A name that another note has too is written as a path, as Obsidian's
// shortest form does.
func TestRenameNote_NameTakenWritesPath(t *testing.T) {
	tv := helpVault(t, "en")
	write(t, tv.dir+"/Test/a.md", []byte("See [[Internal links#Link to a file|files]] and [[Internal links]].\n"))
	v := tv.open(t, false)
	mustCall(t, v, "rename_note", `{"path":"Linking notes and files/Internal links.md","new_path":"Archive/Settings"}`)
	if got, want := readFile(t, tv, "Test/a.md"), "See [[Archive/Settings#Link to a file|files]] and [[Archive/Settings]].\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := call(t, v, envNone, "rename_note", `{"path":"Archive/Settings","new_path":"Settings/../x"}`); err == nil {
		t.Error("a path with .. was taken")
	}
	if _, err := call(t, v, envNone, "rename_note", `{"path":"Archive/Settings","new_path":"User interface/Settings.md"}`); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("renaming onto a note: %v", err)
	}
}

// Moving a folder moves its notes with it: links by name stay as they
// are, relative Markdown links (the notes' own among them) are rewritten,
// and every link leads where it led.
func TestRenameNote_MovesAFolder(t *testing.T) {
	tv := helpVault(t, "en")
	write(t, tv.dir+"/Linking notes and files/Rel.md", []byte("[aliases](Aliases.md) and [sync](../Obsidian%20Sync/Headless%20Sync.md)\n"))
	write(t, tv.dir+"/Test/b.md", []byte("[x](../Linking%20notes%20and%20files/Rel.md) [[Aliases]]\n"))
	v := tv.open(t, false)
	links := resolved(v)
	moved := map[string]string{}
	for _, p := range helpNotes(t, tv) {
		if rest, ok := strings.CutPrefix(p, "Linking notes and files/"); ok {
			moved[p] = "Reference/Links/" + rest
		}
	}
	mustCall(t, v, "rename_note", `{"path":"Linking notes and files","new_path":"Reference/Links"}`)
	if got, want := readFile(t, tv, "Reference/Links/Rel.md"), "[aliases](Aliases.md) and [sync](../../Obsidian%20Sync/Headless%20Sync.md)\n"; got != want {
		t.Errorf("the moved note's own links: %q, want %q", got, want)
	}
	if got, want := readFile(t, tv, "Test/b.md"), "[x](../Reference/Links/Rel.md) [[Aliases]]\n"; got != want {
		t.Errorf("a link into the folder: %q, want %q", got, want)
	}
	after := resolved(v)
	for k, to := range links {
		p, rest, _ := strings.Cut(k, ":")
		if q, ok := moved[p]; ok {
			p = q
		}
		if q, ok := moved[to]; ok {
			to = q
		}
		if got := after[p+":"+rest]; got != to {
			t.Errorf("the link at %s led to %q and now leads to %q", k, to, got)
		}
	}
	if n := len(slices.Collect(maps.Keys(moved))); v.Len() != len(helpNotes(t, tv)) || n < 4 {
		t.Errorf("%d notes indexed, %d moved", v.Len(), n)
	}
}
