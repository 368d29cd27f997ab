package vault

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// paths are the note paths a query_notes result lists, in order.
func paths(out string) []string {
	var ps []string
	for _, line := range strings.Split(out, "\n")[1:] {
		if p, _, _ := strings.Cut(line, " · "); strings.HasSuffix(p, ".md") {
			ps = append(ps, p)
		}
	}
	return ps
}

func TestQueryNotes_HelpVault(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			tv := helpVault(t, lang)
			for p, text := range map[string]string{
				"Projects/Alpha.md": "---\npriority: 3\ndue: 2024-05-01\nstatus: 进行中\ntags: [project/alpha]\n---\n[[Nowhere at all]]\n",
				"Projects/Beta.md":  "---\npriority: 1\ndue: 2024-07-01\nstatus: done\n---\n#project/beta [[Alpha]]\n",
				"Projects/Gamma.md": "---\npriority: 2\nstatus: Done\n---\nNo links. #project\n",
			} {
				write(t, filepath.Join(tv.dir, p), []byte(text))
			}
			old := time.Now().Add(-48 * time.Hour)
			var notes []string
			for _, p := range helpNotes(t, tv) {
				if !strings.HasPrefix(p, "Projects/") {
					if err := os.Chtimes(filepath.Join(tv.dir, p), old, old); err != nil {
						t.Fatal(err)
					}
				}
				notes = append(notes, p)
			}
			v := tv.open(t, false)

			// Every note whose front matter says publish: true, and none
			// other, found independently of the index.
			var published []string
			for _, p := range notes {
				for _, pr := range noteProperties(readFile(t, tv, p), nil) {
					if pr.Name == "publish" && pr.Value == true {
						published = append(published, p)
					}
				}
			}
			slices.Sort(published)
			written := 0 // the notes whose front matter says so as written
			for _, p := range notes {
				front, _ := rawFront(readFile(t, tv, p))
				if slices.ContainsFunc(front, func(l string) bool { return strings.TrimRight(l, " \t") == "publish: true" }) {
					written++
				}
			}
			if got := paths(mustCall(t, v, "query_notes", `{"property":{"publish":true},"limit":1000}`)); !slices.Equal(got, published) || len(published) != written || written == 0 {
				t.Errorf("publish: true found %d notes, want %d (%d say so)", len(got), len(published), written)
			}

			tests := []struct {
				args string
				want []string
			}{
				{`{"tag":"project"}`, []string{"Projects/Alpha.md", "Projects/Beta.md", "Projects/Gamma.md"}},
				{`{"tag":"#project/alpha"}`, []string{"Projects/Alpha.md"}},
				{`{"property":{"status":"done"}}`, []string{"Projects/Beta.md", "Projects/Gamma.md"}},
				{`{"property":{"status":{"ne":"done"}},"folder":"Projects"}`, []string{"Projects/Alpha.md"}},
				{`{"property":{"priority":{"gte":2}},"sort":"-priority"}`, []string{"Projects/Alpha.md", "Projects/Gamma.md"}},
				{`{"property":{"due":{"lt":"2024-06-01"}}}`, []string{"Projects/Alpha.md"}},
				{`{"property":{"due":{"exists":false}},"folder":"Projects"}`, []string{"Projects/Gamma.md"}},
				{`{"property":{"status":{"contains":"进行"}}}`, []string{"Projects/Alpha.md"}},
				{`{"folder":"Projects","sort":"priority","limit":2}`, []string{"Projects/Beta.md", "Projects/Gamma.md"}},
				{`{"links_to":"[[Alpha]]"}`, []string{"Projects/Beta.md"}},
				{`{"modified_after":"` + time.Now().Add(-time.Hour).Format("2006-01-02T15:04:05Z07:00") + `"}`, []string{"Projects/Alpha.md", "Projects/Beta.md", "Projects/Gamma.md"}},
				{`{"unresolved":true,"folder":"Projects"}`, []string{"Projects/Alpha.md"}},
				{`{"orphan":true,"folder":"Projects"}`, []string{"Projects/Beta.md", "Projects/Gamma.md"}},
			}
			for _, tt := range tests {
				if got := paths(mustCall(t, v, "query_notes", tt.args)); !slices.Equal(got, tt.want) {
					t.Errorf("query_notes %s = %v, want %v", tt.args, got, tt.want)
				}
			}
			if out := mustCall(t, v, "query_notes", `{"unresolved":true,"folder":"Projects"}`); !strings.Contains(out, "unresolved: [[Nowhere at all]]") {
				t.Errorf("the unresolved link is not named:\n%s", out)
			}
			if out := mustCall(t, v, "query_notes", `{"folder":"Projects","limit":1}`); !strings.Contains(out, "1 of 3 notes") || !strings.Contains(out, "2 more notes not shown") {
				t.Errorf("limit:\n%s", out)
			}

			// links_to against the backlinks, over the whole vault.
			name := map[string]string{"en": "Internal links", "zh": "内部链接"}[lang]
			p, _, err := v.findNote(name)
			if err != nil {
				t.Fatal(err)
			}
			var from []string
			for _, b := range v.Backlinks(p) {
				from = appendUnique(from, b.From)
			}
			slices.Sort(from)
			if got := paths(mustCall(t, v, "query_notes", `{"links_to":`+quote(name)+`,"limit":1000}`)); !slices.Equal(got, from) || len(from) < 10 {
				t.Errorf("links_to %s = %d notes, the backlinks %d", name, len(got), len(from))
			}

			for args, want := range map[string]string{
				`{}`:                                   "give at least one filter",
				`{"property":{"x":{"between":[1,2]}}}`: "is not a condition",
				`{"modified_after":"last week"}`:       "is not a date",
			} {
				if _, err := call(t, v, envNone, "query_notes", args); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("query_notes %s: %v, want %q", args, err, want)
				}
			}
		})
	}
}

func TestGetLinks(t *testing.T) {
	tv := makeVault(t)
	write(t, filepath.Join(tv.dir, "Links.md"), []byte("[[Welcome]] [[Nope#H]] ![[pic.png]] [b](Projects/Beta.md)\n"))
	v := tv.open(t, false)
	out := mustCall(t, v, "get_links", `{"path":"Links"}`)
	if w := containsAll(out, "4 links from Links.md, 1 unresolved", "[[Welcome]] → Welcome.md", "[[Nope#H]] → unresolved",
		"an attachment (png file)", "[[Projects/Beta.md]] → Projects/Beta.md"); w != "" {
		t.Errorf("get_links lacks %q:\n%s", w, out)
	}
	if out := mustCall(t, v, "get_links", `{"path":"Projects/Alpha.md"}`); !strings.Contains(out, "2 notes link to it") {
		t.Errorf("get_links Alpha:\n%s", out)
	}
}
