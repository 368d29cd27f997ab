package longterm

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// Every hit says why it was recalled: pinned, a preference, or the task's
// words it matched and how well; a run that uses it keeps that reason.
func TestRecall_SaysWhy(t *testing.T) {
	s := openTemp(t)
	got := remember(t, s, day0,
		Entry{Kind: KindFact, Text: "The office closes at six on Fridays"},
		Entry{Kind: KindPreference, Text: "Remember that I prefer Markdown tables", Source: SourceStanding, RunID: "r1"},
		Entry{Kind: KindOutcome, Text: "Task: Compile the Q3 sales report\nOutcome: revenue was 1,204,000", Source: SourceResult, RunID: "r2"},
	)
	if err := s.Pin(got[0].ID, true, day0); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Recall("Update the Q3 sales report", 5)
	if err != nil || len(hits) != 3 {
		t.Fatalf("Recall = %v, %v", texts(hits), err)
	}
	if hits[0].Reason != ReasonPinned || hits[1].Reason != ReasonPreference || hits[2].Reason != ReasonMatch {
		t.Fatalf("reasons = %q %q %q", hits[0].Reason, hits[1].Reason, hits[2].Reason)
	}
	match := hits[2]
	if match.Score <= 0 || !slices.Contains(match.Terms, "q3") || !slices.Contains(match.Terms, "report") || slices.Contains(match.Terms, "update") {
		t.Fatalf("match = score %v terms %q; want the task's words the memory holds", match.Score, match.Terms)
	}
	if match.Source != SourceResult || match.RunID != "r2" {
		t.Fatalf("the hit lost where it came from: %+v", match.Entry)
	}

	later := day0.AddDate(0, 0, 1)
	if err := s.MarkRecalled(hits, "r3", later); err != nil {
		t.Fatal(err)
	}
	e, err := s.Get(match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e.LastRecall == nil || e.LastRecall.RunID != "r3" || e.LastRecall.Reason != ReasonMatch ||
		!slices.Equal(e.LastRecall.Terms, match.Terms) || e.Recalls != 1 || !e.Recalled.Equal(later) {
		t.Fatalf("after MarkRecalled: %+v (last recall %+v)", e, e.LastRecall)
	}
	if p, _ := s.Get(hits[0].ID); p.LastRecall == nil || p.LastRecall.Reason != ReasonPinned {
		t.Fatalf("the pinned memory's last recall = %+v", p.LastRecall)
	}
}

// An entry written before entries said where they came from is read as
// it was; an outcome or a path is known to come from a run's result.
func TestMemory_OldEntriesReadable(t *testing.T) {
	s := openTemp(t)
	written := remember(t, s, day0,
		Entry{Kind: KindOutcome, Text: "Task: old task\nOutcome: old answer", RunID: "r0"},
		Entry{Kind: KindPreference, Text: "Use tabs"},
	)
	// Rewrite them as the previous version stored them.
	old := map[uint64]string{
		written[0].ID: `{"id":1,"kind":"outcome","text":"Task: old task\nOutcome: old answer","run_id":"r0","created":"2026-01-10T09:00:00Z","recalls":2}`,
		written[1].ID: `{"id":2,"kind":"preference","text":"Use tabs","created":"2026-01-10T09:00:00Z"}`,
	}
	err := s.s.Update(func(tx *bolt.Tx) error {
		for id, data := range old {
			if err := tx.Bucket(memEntriesBucket).Put(idKey(id), []byte(data)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	outcome, err := s.Get(written[0].ID)
	if err != nil || outcome.Origin() != SourceResult || outcome.RunID != "r0" || outcome.Recalls != 2 || outcome.LastRecall != nil {
		t.Fatalf("old outcome = %+v, %v", outcome, err)
	}
	pref, err := s.Get(written[1].ID)
	if err != nil || pref.Origin() != "" {
		t.Fatalf("old preference = %+v (origin %q), %v; its origin is unknown", pref, pref.Origin(), err)
	}
	hits, err := s.Recall("old task", 5)
	if err != nil || len(hits) != 2 {
		t.Fatalf("Recall of old entries = %v, %v", texts(hits), err)
	}
	if err := s.MarkRecalled(hits, "r9", day0); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(Entry{ID: 3, Kind: KindFact, Text: "x", Created: day0})
	if string(data) != `{"id":3,"kind":"fact","text":"x","created":"2026-01-10T09:00:00Z"}` {
		t.Errorf("a new entry without source or recall writes %s", data)
	}
}

// A memory that shares only words such as "the" or "and" with a task has
// nothing to do with it, and is not recalled.
func TestRecall_IgnoresFunctionWords(t *testing.T) {
	s := openTemp(t)
	remember(t, s, day0,
		Entry{Kind: KindFact, Text: "The office closes at six on Fridays and opens at nine"},
		Entry{Kind: KindOutcome, Text: "Task: Compile the Q3 sales report\nOutcome: revenue was 1,204,000"},
	)
	hits, err := s.Recall("Update the Q3 sales report and send it to the team", 5)
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Text, "Q3 sales") {
		t.Fatalf("Recall = %v, %v; want only the sales report", texts(hits), err)
	}
	if slices.Contains(hits[0].Terms, "the") {
		t.Errorf("matched terms %q name a function word", hits[0].Terms)
	}
}
