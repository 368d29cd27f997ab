package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"time"

	"hermes/backend/toolbox"
	"hermes/backend/vault"
)

// edits times query_notes by a property and by a tag (the tool as the
// model calls it, its listing included), and rename_note of the note most
// linked to, which rewrites the link in every note that links to it and
// syncs each note it writes.
func edits(v *vault.Vault, queries int) error {
	tools := vault.Tools(v)
	query := toolNamed(tools, "query_notes")
	all, _, err := v.Query(vault.Query{})
	if err != nil {
		return err
	}
	var tags []string
	links := map[string]int{}
	for _, h := range all {
		for _, t := range h.Note.Tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		for _, l := range v.OutLinks(h.Note.Path) {
			if l.Resolved && l.To != h.Note.Path {
				links[l.To]++
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 9))
	statuses := []any{"todo", "doing", "done", map[string]any{"ne": "done"}}
	for _, c := range []struct {
		what string
		args func() any
	}{
		{"by property", func() any {
			return map[string]any{"property": map[string]any{"status": statuses[r.IntN(len(statuses))]}}
		}},
		{"by tag", func() any { return map[string]any{"tag": tags[r.IntN(len(tags))]} }},
	} {
		var took []time.Duration
		for range queries {
			args, _ := json.Marshal(c.args())
			t0 := time.Now()
			if _, err := query.Run(context.Background(), toolbox.Env{}, args); err != nil {
				return err
			}
			took = append(took, time.Since(t0))
		}
		slices.Sort(took)
		fmt.Printf("query_notes %-12s p50 %s, p95 %s (%d calls, top 50 listed; targets 10 and 30 ms)\n",
			c.what, ms(took[len(took)/2]), ms(took[len(took)*95/100]), queries)
	}

	// The most linked note, renamed to a new name and back, five times.
	target := ""
	for p, n := range links {
		if target == "" || n > links[target] || n == links[target] && p < target {
			target = p
		}
	}
	rename := toolNamed(tools, "rename_note")
	renamed := strings.TrimSuffix(target, ".md") + " renamed.md"
	var took []time.Duration
	changed := 0
	for i := range 6 {
		from, to := target, renamed
		if i%2 == 1 {
			from, to = renamed, target
		}
		args, _ := json.Marshal(map[string]string{"path": from, "new_path": to})
		t0 := time.Now()
		out, err := rename.Run(context.Background(), toolbox.Env{}, args)
		if err != nil {
			return fmt.Errorf("rename %s: %w", from, err)
		}
		took = append(took, time.Since(t0))
		changed = cmp.Or(changed, strings.Count(out, "\n- ")-1)
	}
	first := took[0]
	slices.Sort(took)
	fmt.Printf("rename_note with link updates %s median, %s the first (the notes' links decoded), %s worst of 6; %q, linked from %d notes (goal 1 s)\n",
		ms(took[3]), ms(first), ms(took[5]), path.Base(target), changed)
	return nil
}
