package vault

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"hermes/backend/search"
	"hermes/backend/toolbox"
)

type searchNotesArgs struct {
	Query      string            `json:"query,omitempty" description:"Words to look for, in any language (Chinese included); notes holding more of them rank higher. Leave empty to list the notes that pass the filters."`
	Tag        string            `json:"tag,omitempty" description:"Only notes with this tag, without \"#\" (project also finds project/alpha)."`
	Folder     string            `json:"folder,omitempty" description:"Only notes in this folder or below it, relative to the vault root (such as Projects/2024)."`
	Properties map[string]string `json:"properties,omitempty" description:"Only notes whose front matter has these values, such as {\"status\": \"done\"}; compared without regard to case."`
	Limit      int               `json:"limit" default:"10" minimum:"1" maximum:"50" description:"Most notes to return."`
}

func searchNotesTool(get opener) toolbox.Tool {
	return toolbox.Func("search_notes",
		"Search the user's Obsidian vault by full text. Use it first whenever the task is about the user's notes and "+
			"you do not know the exact note, and again with other words when the results miss. Ranked best first: "+
			"words in a note's name or aliases count most. Filters (tag, folder, front-matter properties) narrow the "+
			"search, and with an empty query list the notes that pass them. Returns, for each note: its path (pass it "+
			"to read_note), its title, its tags, and a snippet around the first match; and how many notes matched in all.",
		toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a searchNotesArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.searchNotes(a)
		})
}

func (v *Vault) searchNotes(a searchNotesArgs) (string, error) {
	q := search.Query{Text: a.Query, Limit: a.Limit}
	if t := strings.Trim(strings.TrimSpace(a.Tag), "#/"); t != "" {
		q.Filters = append(q.Filters, search.Filter{Key: "tag", Values: []string{strings.ToLower(t)}})
	}
	if a.Folder != "" {
		folder, err := v.clean(a.Folder)
		if err != nil {
			return "", toolError(a.Folder, err)
		}
		if folder != "" {
			q.Filters = append(q.Filters, search.Filter{Key: "folder", Values: []string{strings.ToLower(folder)}})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Properties)) {
		q.Filters = append(q.Filters, search.Filter{Key: "prop:" + strings.ToLower(k), Values: []string{strings.ToLower(a.Properties[k])}})
	}
	if strings.TrimSpace(a.Query) == "" && len(q.Filters) == 0 {
		return "", toolbox.Errorf("give a query, or at least one of tag, folder and properties; to see the notes in a folder, call list_notes")
	}
	res := v.idx.Search(q)
	if res.Total == 0 {
		return fmt.Sprintf("No note matches %s. Try other or fewer words, a synonym or the other language (Chinese or English), or drop a filter; list_tags shows the tags in use.", describe(a)), nil
	}
	var b strings.Builder
	switch {
	case res.Total == 1:
		fmt.Fprintf(&b, "1 note matches %s:\n", describe(a))
	case res.Total == len(res.Hits):
		fmt.Fprintf(&b, "%d notes match %s, best first:\n", res.Total, describe(a))
	default:
		fmt.Fprintf(&b, "%d of %d notes that match %s, best first:\n", len(res.Hits), res.Total, describe(a))
	}
	for i, h := range res.Hits {
		n, ok := v.Note(h.ID)
		if !ok {
			continue // deleted since the search
		}
		fmt.Fprintf(&b, "\n%d. %s — %s\n", i+1, n.Path, n.Name())
		if len(n.Tags) > 0 {
			fmt.Fprintf(&b, "   tags: #%s\n", strings.Join(n.Tags, " #"))
		}
		if s := v.snippet(n, h.Matched); s != "" {
			fmt.Fprintf(&b, "   %s\n", s)
		}
	}
	if res.Total > len(res.Hits) {
		fmt.Fprintf(&b, "\n%s more not shown; raise limit or narrow the search.", plural(res.Total-len(res.Hits), "note", "notes"))
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// describe says what was searched for, for the result's first line.
func describe(a searchNotesArgs) string {
	var parts []string
	if a.Query != "" {
		parts = append(parts, fmt.Sprintf("%q", a.Query))
	}
	if a.Tag != "" {
		parts = append(parts, "tag #"+strings.Trim(a.Tag, "#"))
	}
	if a.Folder != "" {
		parts = append(parts, "in "+a.Folder)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Properties)) {
		parts = append(parts, fmt.Sprintf("%s=%s", k, a.Properties[k]))
	}
	return strings.Join(parts, ", ")
}

// snippetRunes is about how much text a snippet shows around a match.
const snippetRunes = 160

// snippet is the text around the first line of the note's body that holds
// a matched term (a heading only when no other line does), or its first
// paragraph when none does (a match in the name or tags only).
func (v *Vault) snippet(n *Note, terms []string) string {
	b, err := v.root.ReadFile(n.Path)
	if err != nil {
		return ""
	}
	lines := strings.Split(Decode(b).Text, "\n")
	_, start := frontMatter(lines)
	lines = lines[start:]
	for _, headings := range []bool{false, true} {
		for _, line := range lines {
			line = strings.TrimSpace(line)
			if line == "" || headingRE().MatchString(line) != headings {
				continue
			}
			lower := strings.ToLower(line)
			for _, t := range terms {
				if i := strings.Index(lower, t); i >= 0 && len(lower) == len(line) {
					return around(line, i)
				}
			}
		}
	}
	for _, line := range lines {
		if line = strings.TrimSpace(line); line != "" && !headingRE().MatchString(line) {
			return around(line, 0)
		}
	}
	return ""
}

// around cuts line to about snippetRunes runes, keeping byte offset i in
// view.
func around(line string, i int) string {
	if utf8.RuneCountInString(line) <= snippetRunes {
		return line
	}
	runes := []rune(line)
	at := utf8.RuneCountInString(line[:i])
	from := max(0, at-snippetRunes/3)
	to := min(len(runes), from+snippetRunes)
	from = max(0, to-snippetRunes)
	s := string(runes[from:to])
	if from > 0 {
		s = "…" + s
	}
	if to < len(runes) {
		s += "…"
	}
	return s
}
