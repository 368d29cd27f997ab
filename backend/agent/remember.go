package agent

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/longterm"
)

// LongTermMemory is the memory that outlives runs: the run's namespace of
// Setup.LongTerm (a longterm.Space).
type LongTermMemory interface {
	Recall(query string, limit int) ([]longterm.Hit, error)
	MarkRecalled(hits []longterm.Hit, runID string, now time.Time) error
	Remember(entries []longterm.Entry, now time.Time) ([]longterm.Entry, error)
	NotePreference(text, runID string, now time.Time) (recurring bool, err error)
	Fade(cutoff time.Time) (int, error)
}

// recallCandidates is how many ranked memories are weighed against the
// memory layer's cap.
const recallCandidates = 20

func (r *Run) longTermMemory() LongTermMemory {
	use := r.memoryUse()
	if r.setup.LongTerm == nil || (use != MemoryOn && use != MemoryRead) {
		return nil
	}
	sp := r.setup.LongTerm.In(r.setup.MemoryNamespace)
	if !r.st.MemoryAsOf.IsZero() {
		sp = sp.AsOf(r.st.MemoryAsOf)
	}
	// What is kept passes the redactor the events pass: a key the run saw
	// is not served later by `hermes memory show` or the API.
	return sp.Scrubbed(r.setup.Redactor.String)
}

// memoryUse is what the run does with long-term memory: its own (Task),
// else the setup's.
func (r *Run) memoryUse() MemoryUse {
	if r.st.Memory != "" {
		return r.st.Memory
	}
	return r.setup.Memory
}

// memoryStatus is what run.started says of the run's long-term memory;
// nil when the process keeps none.
func (r *Run) memoryStatus() *event.MemoryUse {
	if r.setup.LongTerm == nil {
		return nil
	}
	use := r.memoryUse()
	if use != MemoryOn && use != MemoryRead {
		use = MemoryOff
	}
	return &event.MemoryUse{Mode: string(use), AsOf: r.st.MemoryAsOf}
}

// recall fills the memory layer of a new run: memories that have faded are
// dropped first, then the pinned ones, the preferences and those the task
// is about (its own words, not its standing instructions, which say how
// rather than what) go in, best first, while they fit under the cap.
// memory.recalled tells the user which went in and why.
func (r *Run) recall() {
	mem := r.longTermMemory()
	if mem == nil {
		return
	}
	now := r.now()
	if _, err := mem.Fade(now.Add(-r.limits.MemoryFade)); err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", i18n.Clause(err.Error())))
	}
	hits, err := mem.Recall(r.st.Task, recallCandidates)
	if err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", i18n.Clause(err.Error())))
		return
	}
	var b strings.Builder
	b.WriteString("Long-term memory from earlier runs that may help with this task (it may be out of date; check before relying on it):")
	header := b.Len()
	var used []longterm.Hit
	var ids []uint64
	for _, h := range hits {
		line := fmt.Sprintf("\n- [%s] %s", h.Kind, h.Text)
		if contextmgr.Estimate(b.String()+line) > r.limits.MemoryTokens {
			continue // a shorter one further down may still fit
		}
		b.WriteString(line)
		used = append(used, h)
		ids = append(ids, h.ID)
	}
	if b.Len() == header {
		return
	}
	r.st.Context.Memory, r.st.Context.MemoryIDs = b.String(), ids
	refs := make([]event.MemoryRef, len(used))
	for i, h := range used {
		refs[i] = memoryRef(h.Entry)
		refs[i].Reason, refs[i].Terms = h.Reason, h.Terms
		refs[i].Score, refs[i].Relevance = math.Round(h.Score*100)/100, math.Round(h.Relevance*100)/100
	}
	r.publish(event.MemoryRecalled, event.MemoryRecalledData{Entries: refs})
	if err := mem.MarkRecalled(used, r.st.RunID, now); err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", i18n.Clause(err.Error())))
	}
}

// remember writes what a finished run learnt: its outcome and the files it
// used, when the run verified its answer (under a plan, the completion check
// passed), and the user's preferences — those the user says hold beyond
// this run (preferenceMarkers), and standing instructions once another run
// has given them too — which are the person's own words, verified or not.
// An answer nothing vouched for is never recalled into another run.
// Instructions injected while the run worked, and the rest of its task,
// were for this run and stay with it.
func (r *Run) remember(answer string, verified bool) {
	mem := r.longTermMemory()
	if mem == nil || r.memoryUse() != MemoryOn {
		return
	}
	now := r.now()
	var entries []longterm.Entry
	if verified {
		entries = append(entries, longterm.Entry{
			Kind: longterm.KindOutcome, RunID: r.st.RunID, Source: longterm.SourceResult,
			Text: "Task: " + clip(r.st.Task, 300) + "\nOutcome: " + clip(answer, 800),
		})
		if paths := r.usefulPaths(); len(paths) > 0 {
			entries = append(entries, longterm.Entry{
				Kind: longterm.KindPath, RunID: r.st.RunID, Source: longterm.SourceResult,
				Text: fmt.Sprintf("Files used for %q in %s: %s", clip(r.st.Task, 80), r.st.Workspace, strings.Join(paths, ", ")),
			})
		}
	}
	seen := map[string]bool{}
	for _, said := range r.userStatements() {
		for _, s := range instructions(said.text) {
			keep := statedPreference(s)
			if !keep && said.source == longterm.SourceStanding {
				recurring, err := mem.NotePreference(s, r.st.RunID, now)
				if err != nil {
					r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", i18n.Clause(err.Error())))
					return
				}
				keep = recurring
			}
			if key := longterm.Normalise(s); keep && !seen[key] {
				seen[key] = true
				entries = append(entries, longterm.Entry{Kind: longterm.KindPreference, RunID: r.st.RunID, Source: said.source, Text: s})
			}
		}
	}
	written, err := mem.Remember(entries, now)
	if err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", i18n.Clause(err.Error())))
		return
	}
	if len(written) == 0 {
		return
	}
	refs := make([]event.MemoryRef, len(written))
	for i, e := range written {
		refs[i] = memoryRef(e)
	}
	r.publish(event.MemoryWritten, event.MemoryWrittenData{Entries: refs})
}

// memoryRef is e as events show it, with where it came from.
func memoryRef(e longterm.Entry) event.MemoryRef {
	return event.MemoryRef{ID: e.ID, Kind: e.Kind, Text: e.Text, Source: e.Origin(), RunID: e.RunID, Created: e.Created}
}

type statement struct {
	text   string
	source string // longterm.Source…
}

// userStatements are what the user said in the run: its standing
// instructions, its task and the instructions injected while it ran.
func (r *Run) userStatements() []statement {
	out := []statement{{r.st.Instr, longterm.SourceStanding}, {r.st.Task, longterm.SourceTask}}
	prefix := injectedInstruction("")
	for _, m := range r.turns {
		if m.Role == llm.RoleUser {
			if text, ok := strings.CutPrefix(m.Content, prefix); ok {
				out = append(out, statement{text, longterm.SourceInstruction})
			}
		}
	}
	return out
}

// A sentence is a stated preference when it opens with one of
// preferenceOpenings (after "please"/"and", "请"), or holds one of
// preferencePhrases anywhere: a word such as "remember" or "以后" inside a
// sentence ("find where remember() is called", "下载以后解压") says nothing
// about later runs.
var (
	preferenceOpenings = []string{
		"remember", "always", "from now on", "in future", "in the future", "going forward", "don't forget", "do not forget",
		"记住", "记得", "总是", "始终", "永远", "以后", "今后", "从现在起", "从今以后",
	}
	preferencePhrases = []string{
		"from now on", "in future", "in the future", "going forward", "i prefer", "my preference", "i always want", "remember that i",
		"从现在起", "从今以后", "以后都", "以后请", "今后都", "今后请", "我更喜欢", "我偏好", "我的偏好", "我习惯",
	}
	politeOpenings = []string{"please ", "and ", "also ", "请", "并且", "还有"}
)

func statedPreference(sentence string) bool {
	lower := strings.TrimSpace(strings.ToLower(sentence))
	for _, p := range preferencePhrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	for trimmed := true; trimmed; {
		trimmed = false
		for _, p := range politeOpenings {
			if rest, ok := strings.CutPrefix(lower, p); ok {
				lower, trimmed = strings.TrimLeftFunc(rest, isSpaceOrPunct), true
			}
		}
	}
	for _, p := range preferenceOpenings {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

func isSpaceOrPunct(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }

// instructions splits what the user said into whole instructions: each
// line is one, except that a sentence stating a preference starts a new
// one; the sentences that follow it (a reason, an example) stay with it.
// So "Skip the daily notes; they repeat the project notes." is never kept
// as two, and "Write dates as ISO. Remember that I prefer tables." is two.
func instructions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		var cur []string
		flush := func() {
			if s := strings.TrimSpace(strings.Join(cur, " ")); len([]rune(s)) >= 4 {
				out = append(out, s)
			}
			cur = cur[:0]
		}
		for _, s := range sentences(strings.TrimLeft(strings.TrimSpace(line), "-*•·> ")) {
			if statedPreference(s) {
				flush()
			}
			cur = append(cur, s)
		}
		flush()
	}
	return out
}

// sentences splits a line at sentence ends, Chinese ones included; a
// semicolon does not end a sentence.
func sentences(line string) []string {
	var out []string
	runes := []rune(line)
	start := 0
	flush := func(end int) {
		if s := strings.TrimSpace(string(runes[start:end])); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i, c := range runes {
		switch {
		case c == '。' || c == '！' || c == '？':
			flush(i + 1)
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(runes) || unicode.IsSpace(runes[i+1])):
			flush(i + 1)
		}
	}
	flush(len(runes))
	return out
}

// usefulPaths are the paths of the file calls that succeeded, in the order
// the run first used them.
func (r *Run) usefulPaths() []string {
	failed := map[string]bool{}
	for _, m := range r.turns {
		if m.Role == llm.RoleTool && strings.HasPrefix(m.Content, "Error:") {
			failed[m.ToolCallID] = true
		}
	}
	var paths []string
	for _, m := range r.turns {
		for _, c := range m.ToolCalls {
			var args struct {
				Path string `json:"path"`
			}
			if failed[c.ID] || json.Unmarshal([]byte(c.Arguments), &args) != nil || args.Path == "" || args.Path == "." {
				continue
			}
			if !slices.Contains(paths, args.Path) {
				paths = append(paths, args.Path)
			}
		}
	}
	return paths
}

func clip(text string, n int) string {
	text = strings.TrimSpace(text)
	if runes := []rune(text); len(runes) > n {
		return string(runes[:n]) + "…"
	}
	return text
}
