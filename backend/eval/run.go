package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// Spec is one run an eval starts: the task, the copies of its fixtures it
// works in, and the variant's settings.
type Spec struct {
	Task          string
	Instructions  string
	Workspace     string
	Vault         string // "" for none
	Model         string
	BaseURL       string
	Strategy      string
	Temperature   *float64
	MaxIterations int
	// Memory is "off" or "read" (Suite.Memory).
	Memory string
}

// Engine runs the missing runs of an eval. Each run is an ordinary run of
// the home: Start starts it through the home's runner, and Runs watches it,
// answers what it asks and stops it.
type Engine struct {
	Runs  runapi.Runs
	Start func(ctx context.Context, s Spec) (runID string, err error)
	Store *store.Store
	// Judge returns the judge of a variant's runs; nil: judge checks err.
	Judge func(v Variant) Judge
	// Dir holds the copies of the fixtures each run works in, kept after
	// the run so that it can be opened and forked (HOME/evals).
	Dir string
	// Parallel is how many runs go on at once (at least 1); a provider's
	// rate limit lowers it for the rest of the eval.
	Parallel int
	// Progress hears of each run as it starts and ends; it is called from
	// the runs' goroutines, one call at a time.
	Progress func(Progress)
	// RateLimited hears that a provider's rate limit failed a run, which
	// starts again after wait, with at most parallel runs at once from now.
	RateLimited func(task, variant string, wait time.Duration, parallel int)
	// Stopping hears, once stop is closed, that the live runs were asked to
	// stop at their next safe point, and how many there are.
	Stopping func(live int)

	mu   sync.Mutex
	live map[string]bool
}

// Progress is one run of an eval starting (Result nil) or checked.
type Progress struct {
	Task, Variant string
	Rep           int
	RunID         string
	Result        *Result
	Done, Total   int
}

type job struct {
	task    *Task
	variant Variant
	rep     int
	tries   int
}

// rateRetries is how many times a run that a provider's rate limit failed
// is started again before it counts as an error.
const rateRetries = 3

// rateBackoff is the first wait after a rate-limited run, doubled each
// time: the client's own retries waited as the provider's Retry-After said.
var rateBackoff = time.Second

// Missing is how many runs of ev are not yet checked (an error counts as
// missing, so a resume tries it again).
func Missing(s *Suite, ev *Eval) int { return len(missing(s, ev)) }

func missing(s *Suite, ev *Eval) []job {
	have := map[string]bool{}
	for _, r := range ev.Results {
		if r.Error == "" {
			have[string(resultKey(ev.ID, r.Task, r.Variant, r.Rep))] = true
		}
	}
	var out []job
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if !contains(ev.Tasks, t.ID) {
			continue
		}
		for _, v := range ev.Variants {
			for rep := range max(ev.Repeat, 1) {
				if !have[string(resultKey(ev.ID, t.ID, v.Label(), rep))] {
					out = append(out, job{task: t, variant: v, rep: rep})
				}
			}
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Run runs the missing runs of ev, at most Parallel at once, saving each
// result as it is checked. Closing stop stops starting runs and asks the
// live ones to stop at their next safe point: those are left missing, for
// a resume. The end of ctx cancels them. Run returns once no run is live;
// ev.Results then holds every result, ev.State says whether it is done.
func (e *Engine) Run(ctx context.Context, stop <-chan struct{}, s *Suite, ev *Eval) error {
	jobs := missing(s, ev)
	total := len(ev.Tasks) * len(ev.Variants) * max(ev.Repeat, 1)
	done := total - len(jobs)
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
	)
	slots := newLimiter(max(e.Parallel, 1))
	queue := make(chan job, len(jobs))
	for _, j := range jobs {
		queue <- j
	}
	pending := len(jobs)
	finish := func() {
		mu.Lock()
		pending--
		if pending == 0 {
			close(queue)
		}
		mu.Unlock()
	}
	if pending == 0 {
		close(queue)
	}
	stopped := false
	e.mu.Lock()
	e.live = map[string]bool{}
	e.mu.Unlock()
loop:
	for {
		var j job
		var ok bool
		select {
		case j, ok = <-queue:
			if !ok {
				break loop
			}
		case <-stop:
			stopped = true
			break loop
		case <-ctx.Done():
			stopped = true
			break loop
		}
		if !slots.acquire(ctx, stop) {
			stopped = true
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, again, err := e.runOne(ctx, stop, s, ev.ID, j)
			slots.release()
			if again && j.tries < rateRetries {
				n := slots.shrink()
				j.tries++
				wait := rateBackoff << (j.tries - 1)
				if e.RateLimited != nil {
					mu.Lock()
					e.RateLimited(j.task.ID, j.variant.Label(), wait, n)
					mu.Unlock()
				}
				select {
				case <-time.After(wait):
				case <-stop:
				case <-ctx.Done():
				}
				queue <- j
				return
			}
			defer finish()
			if r == nil && err == nil {
				return // stopped before its end: left for a resume
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			if err := SaveResult(e.Store, ev.ID, *r); err != nil && firstErr == nil {
				firstErr = err
			}
			ev.Results = append(ev.Results, *r)
			done++
			if e.Progress != nil {
				e.Progress(Progress{Task: r.Task, Variant: r.Variant, Rep: r.Rep, RunID: r.RunID, Result: r, Done: done, Total: total})
			}
		}()
	}
	if stopped {
		e.stopLive()
	}
	wg.Wait()
	// Results that a resume replaced stand once, the newest.
	ev.Results = dedupe(ev)
	ev.sortResults()
	ev.State = StateDone
	if stopped || len(missing(s, ev)) > errorsOf(ev) {
		ev.State = StateStopped
	}
	ev.Ended = time.Now().UTC()
	if err := SaveEval(e.Store, ev); err != nil && firstErr == nil {
		firstErr = err
	}
	return firstErr
}

// errorsOf counts the results that are errors, which missing counts too.
func errorsOf(ev *Eval) int {
	n := 0
	for _, r := range ev.Results {
		if r.Error != "" {
			n++
		}
	}
	return n
}

func dedupe(ev *Eval) []Result {
	at := map[string]int{}
	var out []Result
	for _, r := range ev.Results {
		k := string(resultKey(ev.ID, r.Task, r.Variant, r.Rep))
		if i, ok := at[k]; ok {
			out[i] = r
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	return out
}

// stopLive asks every live run to stop at its next safe point, then says
// so; a run started meanwhile is stopped by its follow.
func (e *Engine) stopLive() {
	e.mu.Lock()
	ids := make([]string, 0, len(e.live))
	for id := range e.live {
		ids = append(ids, id)
	}
	e.mu.Unlock()
	for _, id := range ids {
		_ = e.Runs.Control(id, agent.Control{Kind: agent.ControlStop})
	}
	if e.Stopping != nil {
		e.Stopping(len(ids))
	}
}

// RunJob runs one run of an eval, as Run does each: repetition rep of task
// id under variant v, for a worker that takes the eval's runs from a queue
// (hermes worker). r is nil when stop stopped it before its end; again
// says that a provider's rate limit failed it.
func (e *Engine) RunJob(ctx context.Context, stop <-chan struct{}, s *Suite, evalID, id string, v Variant, rep int) (r *Result, again bool, err error) {
	for i := range s.Tasks {
		if s.Tasks[i].ID == id {
			e.mu.Lock()
			if e.live == nil {
				e.live = map[string]bool{}
			}
			e.mu.Unlock()
			return e.runOne(ctx, stop, s, evalID, job{task: &s.Tasks[i], variant: v, rep: rep})
		}
	}
	return nil, false, fmt.Errorf("%w: no task %q", ErrSuite, id)
}

// runOne makes the run's copies, starts it, follows it to its end and
// checks it. r is nil when the run was stopped before its end; again says
// that a provider's rate limit failed it, to be started again later; err
// is a failure of the eval itself (hermes.db, the disk).
func (e *Engine) runOne(ctx context.Context, stop <-chan struct{}, s *Suite, evalID string, j job) (r *Result, again bool, err error) {
	t, v := j.task, j.variant
	res := &Result{Task: t.ID, Variant: v.Label(), Rep: j.rep}
	dir := filepath.Join(e.Dir, evalID, safeName(t.ID), fmt.Sprintf("%s-%d", safeName(v.Label()), j.rep))
	// A run stopped before its end left its copies: the next starts afresh.
	if err := os.RemoveAll(dir); err != nil {
		return nil, false, err
	}
	ws := filepath.Join(dir, "workspace")
	if err := copyFixture(s, t.Workspace, ws); err != nil {
		return nil, false, err
	}
	spec := Spec{
		Task: t.Task, Workspace: ws, Model: v.Model, BaseURL: v.BaseURL,
		Instructions:  joinText(s.Defaults.Instructions, t.Instructions, v.Instructions),
		Strategy:      firstOf(v.Strategy, t.Strategy, s.Defaults.Strategy),
		Temperature:   v.Temperature,
		MaxIterations: t.MaxIterations,
		Memory:        "off",
	}
	if spec.Temperature == nil {
		spec.Temperature = s.Defaults.Temperature
	}
	if spec.MaxIterations == 0 {
		spec.MaxIterations = s.Defaults.MaxIterations
	}
	if s.Memory == "read" {
		spec.Memory = "read"
	}
	if t.Vault != "" {
		spec.Vault = filepath.Join(dir, "vault")
		if err := copyFixture(s, t.Vault, spec.Vault); err != nil {
			return nil, false, err
		}
	}
	select {
	case <-stop:
		return nil, false, nil
	default:
	}
	id, err := e.Start(ctx, spec)
	if err != nil {
		if rateLimited(err.Error()) {
			return nil, true, nil
		}
		res.Error = err.Error()
		return res, false, nil
	}
	res.RunID = id
	e.mu.Lock()
	e.live[id] = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.live, id)
		e.mu.Unlock()
	}()
	if err := SaveTag(e.Store, id, Tag{Eval: evalID, Task: t.ID, Variant: v.Label(), Rep: j.rep}); err != nil {
		return nil, false, err
	}
	// The title lists and the window show: which eval, task and variant.
	_ = e.Runs.Rename(id, fmt.Sprintf("eval %s · %s · %s #%d", evalID, t.ID, v.Label(), j.rep+1))
	if e.Progress != nil {
		e.Progress(Progress{Task: t.ID, Variant: v.Label(), Rep: j.rep, RunID: id})
	}
	events, stopped, err := e.follow(ctx, stop, id, s.Approvals == "deny", t.Answer)
	if err != nil {
		res.Error = err.Error()
		return res, false, nil
	}
	o := OutcomeOf(events, ws)
	if stopped && (o.Status == event.StatusStopped || o.Status == "" || o.Status == event.StatusRunning) {
		return nil, false, nil
	}
	res.Status, res.Answer = o.Status, o.Answer
	res.Iterations, res.Tokens, res.Cost, res.DurationMS = o.Iterations, o.Tokens, o.Cost, o.Duration.Milliseconds()
	if o.ModelFailed() {
		if rateLimited(o.Error) {
			return nil, true, nil
		}
		res.Error = o.Error
		if res.Error == "" {
			res.Error = o.Status
		}
		return res, false, nil
	}
	var judge Judge
	if e.Judge != nil {
		judge = e.Judge(v)
	}
	checks, err := Evaluate(ctx, *t, o, judge)
	res.Checks = checks
	if err != nil {
		// Not graded: an error of the eval, which a resume runs again.
		res.Ungraded = true
		key, why := "eval.judge_failed", any(err)
		if noScore := (*NoScoreError)(nil); errors.As(err, &noScore) {
			// The answer quoted in either language.
			key, why = "eval.judge_no_score", noScore.Reply
		}
		res.Error = i18n.In(i18n.EN, key, why, evalID)
		res.ErrorIn = map[string]string{string(i18n.EN): res.Error, string(i18n.ZH): i18n.In(i18n.ZH, key, why, evalID)}
		return res, false, nil
	}
	res.Pass = Passed(checks)
	return res, false, nil
}

// follow watches run id to its end, answering its approvals (allowed once,
// as hermes run --yes does, or denied) and questions (with the task's
// answer),
// and stopping it at its next safe point once stop is closed; the end of
// ctx cancels it. stopped says that it was asked to stop.
func (e *Engine) follow(ctx context.Context, stop <-chan struct{}, id string, deny bool, reply string) (events []event.Event, stopped bool, err error) {
	w, err := e.Runs.Watch(id, 0)
	if err != nil {
		return nil, false, err
	}
	done := ctx.Done()
	answered := map[string]bool{}
	for {
		batch, more := w.Next()
		events = append(events, batch...)
		e.answer(id, batch, answered, deny, reply)
		if more == nil {
			return events, stopped, nil
		}
		select {
		case <-more:
		case <-stop:
			stop = nil
			stopped = true
			_ = e.Runs.Control(id, agent.Control{Kind: agent.ControlStop})
		case <-done:
			done = nil
			stopped = true
			_ = e.Runs.Control(id, agent.Control{Kind: runner.ControlCancel})
		}
	}
}

func (e *Engine) answer(id string, events []event.Event, answered map[string]bool, deny bool, reply string) {
	for _, ev := range events {
		switch ev.Type {
		case event.ApprovalRequested:
			d, err := event.Decode[event.ApprovalRequestedData](ev)
			if err != nil || answered[d.ApprovalID] {
				continue
			}
			answered[d.ApprovalID] = true
			a := runner.Answer{Decision: event.ApproveOnce}
			if deny || d.Escaping {
				a = runner.Answer{Decision: event.ApproveDeny, Reason: i18n.In(i18n.EN, "eval.unattended")}
			}
			_ = e.Runs.Approve(id, d.ApprovalID, a)
		case event.QuestionAsked:
			d, err := event.Decode[event.QuestionAskedData](ev)
			if err != nil || answered[d.QuestionID] {
				continue
			}
			answered[d.QuestionID] = true
			_ = e.Runs.Control(id, agent.Control{Kind: agent.ControlAnswer, QuestionID: d.QuestionID, Text: reply})
		}
	}
}

// rateLimited reports whether a run's error is a provider's rate limit
// that outlasted the client's own retries, in either language.
func rateLimited(msg string) bool {
	return strings.Contains(msg, "rate limiting") || strings.Contains(msg, "限制了请求频率")
}

func joinText(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// safeName is a task or variant name made safe as one folder name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, s)
}

// copyFixture copies the suite's fixture folder rel (none: an empty
// folder) to dst, which must not exist. The fixture itself is only read.
func copyFixture(s *Suite, rel, dst string) error {
	if rel == "" {
		return os.MkdirAll(dst, 0o755)
	}
	return copyTree(s.fixture(rel), dst)
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case !d.Type().IsRegular():
			return nil
		}
		return copyFile(path, to, info.Mode().Perm())
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// limiter bounds the runs going on at once; shrink lowers the bound by one
// (never below one) for the rest of the eval, after a provider's rate
// limit.
type limiter struct {
	mu    sync.Mutex
	limit int
	busy  int
	free  chan struct{} // a token whenever a slot frees
}

func newLimiter(n int) *limiter { return &limiter{limit: n, free: make(chan struct{}, 1)} }

func (l *limiter) acquire(ctx context.Context, stop <-chan struct{}) bool {
	for {
		l.mu.Lock()
		if l.busy < l.limit {
			l.busy++
			l.mu.Unlock()
			return true
		}
		l.mu.Unlock()
		select {
		case <-l.free:
		case <-stop:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (l *limiter) release() {
	l.mu.Lock()
	l.busy--
	l.mu.Unlock()
	select {
	case l.free <- struct{}{}:
	default:
	}
}

func (l *limiter) shrink() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit = max(l.limit/2, 1)
	return l.limit
}
