package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/memory"
)

// LongTermMemory is the memory that outlives runs: a namespace of the one
// *memory.Store keeps (memory.Space).
type LongTermMemory interface {
	Recall(query string, limit int) ([]memory.Hit, error)
	MarkRecalled(ids []uint64, now time.Time) error
	Remember(entries []memory.Entry, now time.Time) ([]memory.Entry, error)
	NotePreference(text, runID string, now time.Time) (recurring bool, err error)
	Fade(cutoff time.Time) (int, error)
}

// recallCandidates is how many ranked memories are weighed against the
// memory layer's cap.
const recallCandidates = 20

func (r *Run) longTermMemory() LongTermMemory {
	if r.setup.Memory != MemoryOn && r.setup.Memory != MemoryRead {
		return nil
	}
	if s, ok := r.setup.Store.(*memory.Store); ok {
		// What is kept passes the redactor the events pass: a key the run
		// saw is not served later by `hermes memory show` or the API.
		return s.In(r.setup.MemoryNamespace).Scrubbed(r.setup.Redactor.String)
	}
	return nil
}

// recall fills the memory layer of a new run: memories that have faded are
// dropped first, then the pinned ones and those most relevant to the task go
// in, best first, while they fit under the cap.
func (r *Run) recall() {
	mem := r.longTermMemory()
	if mem == nil {
		return
	}
	now := r.now()
	if _, err := mem.Fade(now.Add(-r.limits.MemoryFade)); err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", err.Error()))
	}
	hits, err := mem.Recall(r.st.Task+"\n"+r.st.Instr, recallCandidates)
	if err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", err.Error()))
		return
	}
	var b strings.Builder
	b.WriteString("Long-term memory from earlier runs that may help with this task (it may be out of date; check before relying on it):")
	header := b.Len()
	var ids []uint64
	for _, h := range hits {
		line := fmt.Sprintf("\n- [%s] %s", h.Kind, h.Text)
		if contextmgr.Estimate(b.String()+line) > r.limits.MemoryTokens {
			continue // a shorter one further down may still fit
		}
		b.WriteString(line)
		ids = append(ids, h.ID)
	}
	if b.Len() == header {
		return
	}
	r.st.Context.Memory, r.st.Context.MemoryIDs = b.String(), ids
	if err := mem.MarkRecalled(ids, now); err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", err.Error()))
	}
}

// remember writes what a finished run learnt: its outcome, the files it
// used, and the user's preferences — those stated as such at once, the other
// standing instructions only once another run has stated them too.
func (r *Run) remember(answer string) {
	mem := r.longTermMemory()
	if mem == nil || r.setup.Memory != MemoryOn {
		return
	}
	now := r.now()
	entries := []memory.Entry{{
		Kind: memory.KindOutcome, RunID: r.st.RunID,
		Text: "Task: " + clip(r.st.Task, 300) + "\nOutcome: " + clip(answer, 800),
	}}
	if paths := r.usefulPaths(); len(paths) > 0 {
		entries = append(entries, memory.Entry{
			Kind: memory.KindPath, RunID: r.st.RunID,
			Text: fmt.Sprintf("Files used for %q in %s: %s", clip(r.st.Task, 80), r.st.Workspace, strings.Join(paths, ", ")),
		})
	}
	for _, said := range r.userStatements() {
		for _, s := range sentences(said.text) {
			keep := statedPreference(s)
			if !keep && said.standing {
				recurring, err := mem.NotePreference(s, r.st.RunID, now)
				if err != nil {
					r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", err.Error()))
					return
				}
				keep = recurring
			}
			if keep {
				entries = append(entries, memory.Entry{Kind: memory.KindPreference, RunID: r.st.RunID, Text: s})
			}
		}
	}
	written, err := mem.Remember(entries, now)
	if err != nil {
		r.guard(event.GuardMemory, event.ActionWarn, i18n.T("agent.guard.memory", err.Error()))
		return
	}
	if len(written) == 0 {
		return
	}
	refs := make([]event.MemoryRef, len(written))
	for i, e := range written {
		refs[i] = event.MemoryRef{ID: e.ID, Kind: e.Kind, Text: e.Text}
	}
	r.publish(event.MemoryWritten, event.MemoryWrittenData{Entries: refs})
}

type statement struct {
	text string
	// standing marks instructions meant to hold (standing or injected ones),
	// which may recur as preferences; the task says what to do once.
	standing bool
}

// userStatements are what the user said in the run: the task, the standing
// instructions and the instructions injected while it ran.
func (r *Run) userStatements() []statement {
	out := []statement{{text: r.st.Task}, {text: r.st.Instr, standing: true}}
	prefix := injectedInstruction("")
	for _, m := range r.turns {
		if m.Role == llm.RoleUser {
			if text, ok := strings.CutPrefix(m.Content, prefix); ok {
				out = append(out, statement{text: text, standing: true})
			}
		}
	}
	return out
}

// preferenceMarkers make a sentence a stated preference: the user says it
// is one, or that it should be remembered or hold from now on.
var preferenceMarkers = []string{
	"remember", "from now on", "in future", "in the future", "going forward", "i prefer", "my preference", "i always want",
	"记住", "以后", "今后", "我喜欢", "我更喜欢", "我偏好", "我的偏好", "我习惯",
}

func statedPreference(sentence string) bool {
	lower := strings.ToLower(sentence)
	for _, m := range preferenceMarkers {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

// sentences splits text at line ends and sentence ends, Chinese ones
// included, and drops fragments too short to mean anything.
func sentences(text string) []string {
	var out []string
	runes := []rune(text)
	start := 0
	flush := func(end int) {
		s := strings.TrimSpace(string(runes[start:end]))
		if len([]rune(s)) >= 4 {
			out = append(out, s)
		}
		start = end
	}
	for i, c := range runes {
		switch {
		case c == '\n' || c == '。' || c == '！' || c == '？' || c == '；':
			flush(i + 1)
		case (c == '.' || c == '!' || c == '?' || c == ';') && (i+1 == len(runes) || unicode.IsSpace(runes[i+1])):
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
