package vault

import (
	"context"
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"hermes/backend/toolbox"
)

type queryNotesArgs struct {
	Tag           string         `json:"tag,omitempty" description:"Only notes with this tag, without \"#\" (project also finds project/alpha)."`
	Folder        string         `json:"folder,omitempty" description:"Only notes in this folder or below it, from the vault root."`
	Property      map[string]any `json:"property,omitempty" description:"Only notes whose properties match: a value ({\"status\": \"done\"}; a list property matches when it holds the value) or conditions ({\"priority\": {\"gte\": 2}}, {\"due\": {\"lt\": \"2024-06-01\"}}, {\"status\": {\"ne\": \"done\"}}, {\"summary\": {\"exists\": false}}, {\"title\": {\"contains\": \"plan\"}}). Text compares without regard to case, numbers as numbers, dates in order."`
	LinksTo       string         `json:"links_to,omitempty" description:"Only notes that link to this note (a path, name or [[wikilink]])."`
	ModifiedAfter string         `json:"modified_after,omitempty" description:"Only notes changed after this date (YYYY-MM-DD) or time (RFC 3339)."`
	Orphan        bool           `json:"orphan,omitempty" description:"Only notes that no other note links to."`
	Unresolved    bool           `json:"unresolved,omitempty" description:"Only notes with links to notes that do not exist, each listed."`
	Sort          string         `json:"sort,omitempty" description:"path (the default), name, modified (newest first), or a property's name (such as due); put - before it to reverse."`
	Limit         int            `json:"limit" default:"50" minimum:"1" maximum:"1000" description:"Most notes to return."`
}

//go:embed query_notes.md
var queryNotesMD string

func init() { register(queryNotesTool) }

func queryNotesTool(get opener) toolbox.Tool {
	return toolbox.Func("query_notes", queryNotesMD, toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a queryNotesArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		return v.queryNotes(a)
	})
}

func (v *Vault) queryNotes(a queryNotesArgs) (string, error) {
	q := Query{Tag: a.Tag, Folder: a.Folder, Property: a.Property, Orphan: a.Orphan, Unresolved: a.Unresolved, Sort: a.Sort, Limit: a.Limit}
	if a.LinksTo != "" {
		p, _, err := v.findNote(a.LinksTo)
		if err != nil {
			return "", err
		}
		q.LinksTo = p
	}
	if a.ModifiedAfter != "" {
		t, err := parseWhen(a.ModifiedAfter)
		if err != nil {
			return "", toolbox.Errorf("modified_after %q is not a date; give YYYY-MM-DD or a time such as 2024-05-01T09:00:00Z", a.ModifiedAfter)
		}
		q.ModifiedAfter = t
	}
	if q.Tag == "" && q.Folder == "" && len(q.Property) == 0 && q.LinksTo == "" && q.ModifiedAfter.IsZero() && !q.Orphan && !q.Unresolved {
		return "", toolbox.Errorf("give at least one filter (tag, folder, property, links_to, modified_after, orphan or unresolved); to find notes by their words, call search_notes")
	}
	hits, total, err := v.Query(q)
	if err != nil {
		return "", err
	}
	if total == 0 {
		return "No note matches every filter. Drop a filter, or check a property's name with get_properties and the tags with list_tags.", nil
	}
	var b strings.Builder
	if total == len(hits) {
		fmt.Fprintf(&b, "%s match:", plural(total, "note", "notes"))
	} else {
		fmt.Fprintf(&b, "%d of %d notes that match:", len(hits), total)
	}
	asked := slices.Sorted(maps.Keys(a.Property))
	if by := strings.TrimPrefix(a.Sort, "-"); by != "" && by != "path" && by != "name" && by != "modified" && !slices.Contains(asked, by) {
		asked = append(asked, by)
	}
	for _, h := range hits {
		n := h.Note
		fmt.Fprintf(&b, "\n%s", n.Path)
		var parts []string
		for _, name := range asked {
			if vs, ok := lookupProperty(n.Front, name); ok {
				parts = append(parts, name+": "+strings.Join(vs, ", "))
			}
		}
		if len(n.Tags) > 0 {
			parts = append(parts, "#"+strings.Join(n.Tags, " #"))
		}
		if a.Sort == "modified" || a.Sort == "-modified" || a.ModifiedAfter != "" {
			parts = append(parts, "modified "+time.Unix(0, n.ModTime).Format("2006-01-02 15:04"))
		}
		if len(h.Unresolved) > 0 {
			parts = append(parts, "unresolved: [["+strings.Join(h.Unresolved, "]], [[")+"]]")
		}
		if len(parts) > 0 {
			b.WriteString(" · " + strings.Join(parts, " · "))
		}
	}
	if total > len(hits) {
		fmt.Fprintf(&b, "\n%s not shown; raise limit or add a filter.", plural(total-len(hits), "more note", "more notes"))
	}
	return b.String(), nil
}

// parseWhen reads a date or a time, a date in the local time zone.
func parseWhen(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: %q", s)
}
