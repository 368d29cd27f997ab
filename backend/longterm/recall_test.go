package longterm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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
	hits, err := s.Recall("the old task and its old answer", 5)
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

// A memory is recalled only for a task that is about it: one that shares
// with it only words such as "the", "的" or "帮我", or a single word any
// task might use ("report", "报告"), gets none of it; one about it does,
// in English and in Chinese. It holds in a small memory, where every word
// is rare, and among many memories.
func TestRecall_OnlyWhatTheTaskIsAbout(t *testing.T) {
	entries := []Entry{
		{Kind: KindOutcome, Text: "Task: Compile the Q3 sales report from sales.csv\nOutcome: Q3 revenue was 1,204,000; the table is in report.md."},
		{Kind: KindPath, Text: `Files used for "Compile the Q3 sales report from sales.csv" in /work: sales.csv`},
		{Kind: KindOutcome, Text: "Task: Summarise the meeting notes of week 12 into SUMMARY.md\nOutcome: Wrote SUMMARY.md with the decisions: budget 500 EUR, launch on 3 May."},
		{Kind: KindFact, Text: "The staging database runs on port 5433 with user deploy"},
		{Kind: KindOutcome, Text: "Task: 帮我把会议纪要整理成摘要\nOutcome: 摘要写在 summary.md，三个决定：预算、上线日期、负责人。"},
		{Kind: KindOutcome, Text: "Task: 整理第三季度的销售报告\nOutcome: 第三季度收入 120 万元，表格在 report.md。"},
		{Kind: KindFact, Text: "番茄每天早上浇水一次，夏天两次"},
		{Kind: KindFact, Text: "数据库备份每周日凌晨三点运行"},
	}
	cases := []struct {
		task string
		want []string // what the recalled memories hold, best first; none when empty
	}{
		// Only function words, or a generic word, in common.
		{"Write a report about the history of Rome", nil},
		{"Write a poem about autumn into notes.md", nil},
		{"What is in this folder and what is it for?", nil},
		{"请帮我写一首关于秋天的诗", nil},
		{"写一份关于罗马历史的报告", nil},
		{"帮我写一份今年的工作总结", nil},
		// About a memory.
		{"Update the Q3 sales report with the September figures", []string{"Q3", "Q3"}},
		{"What budget did we decide in the meeting notes?", []string{"budget 500 EUR"}},
		{"connect to the staging database", []string{"port 5433"}},
		{"总结第三季度的销售报告", []string{"120 万元"}},
		{"会议纪要里的预算是多少", []string{"会议纪要"}},
		{"番茄应该什么时候浇水", []string{"番茄每天早上浇水"}},
		{"检查数据库备份是否正常", []string{"数据库备份"}},
	}
	small := openTemp(t)
	remember(t, small, day0, entries...)
	large := openTemp(t)
	remember(t, large, day0, entries...)
	var others []Entry
	topics := []string{"garden", "invoice", "harbour", "kitchen", "travel", "python code", "hiring plan", "客户名单", "出差报销", "代码评审"}
	for i := range 60 {
		topic := topics[i%len(topics)]
		others = append(others, Entry{Kind: KindOutcome, Text: fmt.Sprintf(
			"Task: Summarise the %s notes of project %d into report%d.md\nOutcome: wrote the %s report with %d items; 写好了%s的总结报告", topic, i, i, topic, i, topic)})
	}
	remember(t, large, day0, others...)
	for name, m := range map[string]*Memory{"small": small, "large": large} {
		for _, c := range cases {
			hits, err := m.Recall(c.task, 5)
			if err != nil {
				t.Fatal(err)
			}
			ok := len(hits) == len(c.want)
			for i := 0; ok && i < len(hits); i++ {
				ok = strings.Contains(hits[i].Text, c.want[i]) && hits[i].Relevance >= minRelevance && hits[i].Relevance <= 1 && len(hits[i].Terms) >= minShared
			}
			if !ok {
				t.Errorf("%s memory: Recall(%q) = %v; want the memories holding %q", name, c.task, texts(hits), c.want)
			}
		}
	}
}

// A space as of a time recalls only what was written before it: a fork's
// recall never holds what its source run, or any run after it started,
// wrote; pinned memories and preferences included. It writes as any.
func TestRecall_AsOf(t *testing.T) {
	s := openTemp(t)
	before := remember(t, s, day0,
		Entry{Kind: KindOutcome, Text: "Task: Compile the Q3 sales report\nOutcome: revenue was 1,204,000", RunID: "r1"},
		Entry{Kind: KindPreference, Text: "Remember that I prefer Markdown tables", RunID: "r1"},
	)
	started := day0.Add(time.Hour)
	after := remember(t, s, started.Add(time.Minute),
		Entry{Kind: KindOutcome, Text: "Task: Update the Q3 sales report\nOutcome: revenue is now 1,300,000", RunID: "source"},
		Entry{Kind: KindPreference, Text: "Always answer in British English", RunID: "source"},
		Entry{Kind: KindFact, Text: "The office closes at six on Fridays"},
	)
	if err := s.Pin(after[2].ID, true, started.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	now, err := s.In("").Recall("Update the Q3 sales report", 5)
	if err != nil || len(now) != 5 {
		t.Fatalf("Recall = %v, %v; want all five", texts(now), err)
	}
	then, err := s.In("").AsOf(started).Recall("Update the Q3 sales report", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(then) != 2 || then[0].ID != before[1].ID || then[1].ID != before[0].ID {
		t.Fatalf("Recall as of the source's start = %v; want only what was written before it", texts(then))
	}
	written, err := s.In("").AsOf(started).Remember([]Entry{{Kind: KindFact, Text: "A fork's own finding"}}, started.Add(2*time.Hour))
	if err != nil || len(written) != 1 || !written[0].Created.Equal(started.Add(2*time.Hour)) {
		t.Fatalf("Remember through a space as of a time = %+v, %v; want it written now", written, err)
	}
}
