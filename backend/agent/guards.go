package agent

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// guardState is what the guards remember across iterations; it is part of
// the checkpoint, so a resumed run keeps counting where it stopped.
type guardState struct {
	LastCall   string `json:"last_call,omitempty"` // name and canonical arguments of the last valid call
	Repeats    int    `json:"repeats,omitempty"`
	NoProgress int    `json:"no_progress,omitempty"`
	// Failures lists, per tool, its failed attempts since its last success.
	Failures map[string][]string `json:"failures,omitempty"`
	// LastFailure is the failure of the iteration's last call, if it failed;
	// a final answer given after it is checked once more.
	LastFailure   string `json:"last_failure,omitempty"`
	VerifyGranted bool   `json:"verify_granted,omitempty"`
	// Unresolved holds, per tool, how its last call went wrong (denied,
	// refused or failed) when the tool has not succeeded since: an answer
	// given while any is held is not verified.
	Unresolved map[string]string `json:"unresolved,omitempty"`
	// Near follows calls in a row on one target, for the near-duplicate
	// guard. It is not saved: a resumed run starts it afresh.
	Near nearState `json:"-"`
}

// nearState is the near-duplicate guard's view of the calls in a row on
// one target: the last arguments, how many of the calls brought nothing
// new, and the shingles of every result seen on the target.
type nearState struct {
	key   string // tool and target
	args  map[string]any
	stale int
	seen  map[uint64]bool
}

func (g *guardState) clone() guardState {
	c := *g
	if g.Failures != nil {
		c.Failures = make(map[string][]string, len(g.Failures))
		for k, v := range g.Failures {
			c.Failures[k] = append([]string(nil), v...)
		}
	}
	c.Unresolved = maps.Clone(g.Unresolved)
	c.Near.seen = maps.Clone(g.Near.seen)
	return c
}

// gates checks, before an iteration starts, the limits that end a run.
func (r *Run) gates() (outcome, bool) {
	if r.st.Iteration >= r.limits.MaxIterations {
		msg := i18n.T("agent.guard.max_iterations", r.limits.MaxIterations)
		r.guard(event.GuardMaxIterations, event.ActionStop, msg)
		return outcome{status: event.StatusMaxIterations, err: msg}, true
	}
	if b := r.limits.TokenBudget; b > 0 && r.st.Totals.TotalTokens >= b {
		msg := i18n.T("agent.guard.token_budget", r.st.Totals.TotalTokens, b)
		r.guard(event.GuardTokenBudget, event.ActionStop, msg)
		return outcome{status: event.StatusBudget, err: msg}, true
	}
	return outcome{}, false
}

// endInSight tells the model, when two iterations are left (this one
// included), that it should wrap up, and records it in limit.near. A run
// whose limit is two or less is told nothing: it has never had more.
func (r *Run) endInSight() {
	limit := r.limits.MaxIterations
	if left := limit - r.st.Iteration + 1; left != 2 || limit <= 2 {
		return
	}
	r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: endInSightNote(limit)})
	r.publish(event.LimitNear, event.LimitNearData{Limit: event.GuardMaxIterations, Left: 2, Max: limit})
}

func endInSightNote(limit int) string {
	return fmt.Sprintf("Note: you have 2 iterations left (this one included) before the run stops at its limit of %d. Wrap up: do only what the answer needs, and give your final answer by the next turn at the latest, saying what is done and what is not.", limit)
}

// noteRepeat counts identical calls in a row. It returns warn when the call
// reaches the limit (the model gets an intervention) and stop past it.
func (r *Run) noteRepeat(key string) (warn, stop bool) {
	g := &r.st.Guards
	if key == g.LastCall {
		g.Repeats++
	} else {
		g.LastCall, g.Repeats = key, 1
	}
	return g.Repeats == r.limits.RepeatLimit, g.Repeats > r.limits.RepeatLimit
}

// noteCall records a call's outcome for the failure guard and returns the
// attempts to report when the tool has now failed too often in a row.
func (r *Run) noteCall(name, args string, failure string) []string {
	g := &r.st.Guards
	if failure == "" {
		delete(g.Failures, name)
		return nil
	}
	if g.Failures == nil {
		g.Failures = map[string][]string{}
	}
	g.Failures[name] = append(g.Failures[name], fmt.Sprintf("%s %s: %s", name, args, failure))
	if len(g.Failures[name]) >= r.limits.FailureLimit {
		return g.Failures[name]
	}
	return nil
}

// noteProgress counts iterations that observed nothing valid and reports
// whether the run must stop for it.
func (r *Run) noteProgress(observed bool) bool {
	g := &r.st.Guards
	if observed {
		g.NoProgress = 0
		return false
	}
	g.NoProgress++
	return g.NoProgress >= r.limits.NoProgressLimit
}

// How a call went wrong, as Unresolved records it.
const (
	callDenied  = "denied"
	callRefused = "refused"
	callFailed  = "failed"
)

// noteOutcome records whether a call of a known tool went wrong, or
// resolves what went wrong with the tool before. A call skipped by a stop
// or a guard says nothing about the tool.
func (r *Run) noteOutcome(c *call) {
	if _, known := r.setup.Tools.Get(c.Name); !known || c.skipped != "" {
		return
	}
	g := &r.st.Guards
	var how string
	switch {
	case c.denied != "":
		how = callDenied
	case !c.valid():
		how = callRefused
	case c.failure != "":
		how = callFailed
	default:
		delete(g.Unresolved, c.Name)
		return
	}
	if g.Unresolved == nil {
		g.Unresolved = map[string]string{}
	}
	g.Unresolved[c.Name] = how
}

// vouch reports whether the calls leave an answer verifiable: the last
// call did not fail, and no tool's denied, refused or failed call still
// waits for the tool to succeed. When they do not, it says why in a guard.
func (r *Run) vouch() bool {
	g := &r.st.Guards
	if g.LastFailure != "" {
		r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.unverified", i18n.Clause(g.LastFailure)))
		return false
	}
	if len(g.Unresolved) == 0 {
		return true
	}
	open := make([]string, 0, len(g.Unresolved))
	for _, name := range slices.Sorted(maps.Keys(g.Unresolved)) {
		open = append(open, name+" ("+g.Unresolved[name]+")")
	}
	r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.unresolved", strings.Join(open, ", ")), open...)
	return false
}

// Near-duplicate calls: a result counts as bringing nothing new when fewer
// than nearNovelty of its shingles (runs of shingleWords words) were in an
// earlier result on the same target; seenLimit bounds what is remembered.
const (
	nearNovelty  = 0.2
	shingleWords = 4
	seenLimit    = 8192
)

// targetKeys are the arguments that name what a call works on.
var targetKeys = []string{"path", "url", "query"}

// checkNear follows the calls that ran on one target (the same tool and
// path, url or query) with arguments that barely change (only numbers
// differ): when as many in a row as the repeat limit brought nothing new,
// the model is told to change approach; one more stops the run. Identical
// calls are left to the repeated-call guard.
func (r *Run) checkNear(calls []*call) ([]string, *outcome) {
	var hints []string
	g := &r.st.Guards.Near
	for _, c := range calls {
		var args map[string]any
		target := ""
		if runnable(c) && c.failure == "" && json.Unmarshal(c.prep.Args, &args) == nil {
			target = callTarget(args)
		}
		if target == "" {
			*g = nearState{}
			continue
		}
		key := c.Name + " " + target
		shingles := shingle(withoutNotes(c.content))
		switch {
		case key != g.key || !barelyChanged(g.args, args):
			*g = nearState{key: key, seen: map[uint64]bool{}}
		case equalArgs(g.args, args):
			continue
		case novelty(shingles, g.seen) < nearNovelty:
			g.stale++
		default:
			g.stale = 0
		}
		g.args = args
		for _, h := range shingles {
			if len(g.seen) < seenLimit {
				g.seen[h] = true
			}
		}
		calls := g.stale + 1
		switch {
		case calls > r.limits.RepeatLimit:
			msg := i18n.T("agent.guard.near_stop", c.Name, target, calls)
			r.guard(event.GuardNearDuplicate, event.ActionStop, msg, key)
			return hints, &outcome{status: event.StatusGuard, err: msg}
		case calls == r.limits.RepeatLimit:
			r.guard(event.GuardNearDuplicate, event.ActionWarn, i18n.T("agent.guard.near_warn", c.Name, target, calls))
			hints = append(hints, nearDuplicateHint(c.Name, target, calls))
		}
	}
	return hints, nil
}

func nearDuplicateHint(name, target string, times int) string {
	return fmt.Sprintf("You have called %s on %s %d times in a row with barely changed arguments, and the results brought nothing new. Stop and change approach: use what you already have, look elsewhere, or give your final answer. One more such call stops the run.", name, target, times)
}

// callTarget is what a call works on: its path, url or query.
func callTarget(args map[string]any) string {
	for _, k := range targetKeys {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// barelyChanged reports whether b has the arguments of a, with at most
// its numbers changed.
func barelyChanged(a, b map[string]any) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			return false
		}
		_, na := va.(float64)
		_, nb := vb.(float64)
		if !(na && nb) && !equalArgs(va, vb) {
			return false
		}
	}
	return true
}

func equalArgs(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// ownNote matches a line Hermes writes into a tool's result to say what
// of it is shown: read_file's "[lines 1-12 of 400; call read_file with
// offset_line=13 to read on]" and "[line 7 is longer than 100000 bytes and
// was cut; …]", read_artifact's "[characters 0 to 4000 of 9000; …]", the
// cut middle of a long result or command output ("[... 1200 of 9000
// characters cut here …]", "[... 4096 bytes of output cut here ...]"),
// and a listing's "… 12 more entries not shown; …".
var ownNote = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\[(?:lines \d+-\d+ of \d+; |line \d+ is longer than \d+ bytes and was cut; |characters \d+ to \d+ of \d+; |\.\.\. \d+ of \d+ characters cut here |\.\.\. \d+ bytes of output cut here ).*\]|(?:… )?\d+ [^;]*\bmore\b[^;]* not shown; .*)$`)
})

// withoutNotes is a tool's result without Hermes's notes about it: their
// numbers change from one call to the next (the lines shown, the next
// offset), so on a file of short lines a note alone made a result that
// brought one line more look a third new.
func withoutNotes(text string) string {
	lines := strings.Split(text, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if !ownNote().MatchString(line) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// shingle hashes each run of shingleWords words of text (a shorter text is
// one shingle).
func shingle(text string) []uint64 {
	words := strings.Fields(text)
	if len(words) == 0 {
		return nil
	}
	n := max(1, len(words)-shingleWords+1)
	out := make([]uint64, n)
	for i := range n {
		h := fnv.New64a()
		for _, w := range words[i:min(i+shingleWords, len(words))] {
			h.Write([]byte(w))
			h.Write([]byte{0})
		}
		out[i] = h.Sum64()
	}
	return out
}

// novelty is the share of shingles not seen before.
func novelty(shingles []uint64, seen map[uint64]bool) float64 {
	if len(shingles) == 0 {
		return 0
	}
	fresh := 0
	for _, h := range shingles {
		if !seen[h] {
			fresh++
		}
	}
	return float64(fresh) / float64(len(shingles))
}
