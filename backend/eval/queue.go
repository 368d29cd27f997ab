package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/store"
)

// The eval queue on NATS JetStream ([cluster] nats_url): `hermes eval run
// --cluster` puts each run of an eval on a work queue, `hermes worker`
// replicas take them, and each result goes to a key-value bucket once.
const (
	jobsStream   = "HERMES_EVAL_JOBS"
	jobsSubject  = "hermes.eval.jobs"
	jobsConsumer = "hermes-eval-workers"
	resultsKV    = "HERMES_EVAL_RESULTS"
	// maxJobDeliver bounds how often a run is handed out: one that kills
	// every worker that takes it is dropped after that many.
	maxJobDeliver = 5
)

// ErrQueue is returned when the eval queue on NATS cannot be reached or set up.
var ErrQueue = errors.New("eval queue unavailable")

// Job is one run of an eval on the queue: the suite's text and the
// fixtures of its task (the worker has neither), the task, the variant and
// the repetition.
type Job struct {
	Eval    string  `json:"eval"`
	Suite   string  `json:"suite"`  // the suite file's name
	Source  string  `json:"source"` // its text
	Files   []File  `json:"files"`  // the task's fixtures, relative to the suite
	Task    string  `json:"task"`   // its id
	Variant Variant `json:"variant"`
	Rep     int     `json:"rep"`
}

// File is one file of a job's fixtures.
type File struct {
	Path string `json:"path"` // slash-separated, relative to the suite's folder
	Data []byte `json:"data"`
	Mode uint32 `json:"mode"`
}

// Queue is a process's hold on the eval queue.
type Queue struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	results jetstream.KeyValue
	ackWait time.Duration
}

// OpenQueue connects to the NATS servers of c (its environment references
// resolved) and makes the stream and bucket, or binds to them.
func OpenQueue(ctx context.Context, c config.Cluster, name string) (*Queue, error) {
	if err := c.CheckAuth(); err != nil {
		return nil, err
	}
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1)}
	switch {
	case c.NATSToken != "":
		opts = append(opts, nats.Token(c.NATSToken))
	case c.NATSCreds != "":
		opts = append(opts, nats.UserCredentials(c.NATSCreds))
	}
	nc, err := nats.Connect(c.NATSURL, opts...)
	if err != nil {
		return nil, i18n.Wrap(ErrQueue, "eval.queue", err)
	}
	q := &Queue{nc: nc, ackWait: c.TaskAckWait()}
	if err := q.setup(ctx, c.StreamReplicas()); err != nil {
		nc.Close()
		return nil, i18n.Wrap(ErrQueue, "eval.queue", err)
	}
	return q, nil
}

func (q *Queue) setup(ctx context.Context, replicas int) error {
	js, err := jetstream.New(q.nc)
	if err != nil {
		return err
	}
	q.js = js
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: jobsStream, Subjects: []string{jobsSubject + ".>"}, Retention: jetstream.WorkQueuePolicy,
		Replicas: replicas, Duplicates: 10 * time.Minute, MaxMsgSize: 8 << 20,
	}); err != nil {
		return err
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, jobsStream, jetstream.ConsumerConfig{
		Durable: jobsConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: q.ackWait, MaxDeliver: maxJobDeliver,
	}); err != nil {
		return err
	}
	q.results, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: resultsKV, Replicas: replicas})
	return err
}

// Close lets go of the connection.
func (q *Queue) Close() { q.nc.Close() }

// jobKey names a run of an eval in the queue's subjects and keys.
func jobKey(eval, task, variant string, rep int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", task, variant, rep))
	return eval + "." + hex.EncodeToString(h[:12])
}

// JobsOf makes the jobs of ev's missing runs.
func JobsOf(s *Suite, ev *Eval) ([]Job, error) {
	src, err := os.ReadFile(s.Path)
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, j := range missing(s, ev) {
		files, err := fixtureFiles(s, j.task)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, Job{Eval: ev.ID, Suite: filepath.Base(s.Path), Source: string(src), Files: files,
			Task: j.task.ID, Variant: j.variant, Rep: j.rep})
	}
	return jobs, nil
}

func fixtureFiles(s *Suite, t *Task) ([]File, error) {
	var out []File
	for _, rel := range []string{t.Workspace, t.Vault} {
		if rel == "" {
			continue
		}
		root := s.fixture(rel)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			r, err := filepath.Rel(s.Dir, p)
			if err != nil {
				return err
			}
			out = append(out, File{Path: filepath.ToSlash(r), Data: b, Mode: uint32(info.Mode().Perm())})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Publish puts jobs on the queue; a job already there (the same eval, task,
// variant and repetition, within ten minutes) is not put twice.
func (q *Queue) Publish(ctx context.Context, jobs []Job) error {
	for _, j := range jobs {
		b, err := json.Marshal(j)
		if err != nil {
			return err
		}
		key := jobKey(j.Eval, j.Task, j.Variant.Label(), j.Rep)
		if _, err := q.js.Publish(ctx, jobsSubject+"."+key, b, jetstream.WithMsgID(key)); err != nil {
			return i18n.Wrap(ErrQueue, "eval.queue", err)
		}
	}
	return nil
}

// Withdraw takes eval's jobs that no worker has taken off the queue.
func (q *Queue) Withdraw(ctx context.Context, eval string) error {
	s, err := q.js.Stream(ctx, jobsStream)
	if err != nil {
		return err
	}
	return s.Purge(ctx, jetstream.WithPurgeSubject(jobsSubject+"."+eval+".>"))
}

// Results follows the results of eval as workers put them, those there
// already first, until ctx ends.
func (q *Queue) Results(ctx context.Context, eval string) (<-chan Result, error) {
	w, err := q.results.Watch(ctx, eval+".*")
	if err != nil {
		return nil, err
	}
	out := make(chan Result, 64)
	go func() {
		defer close(out)
		defer w.Stop()
		for {
			select {
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil {
					continue // the results there already were all given
				}
				var r Result
				if json.Unmarshal(e.Value(), &r) == nil {
					select {
					case out <- r:
					case <-ctx.Done():
						return
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// Work takes jobs from the queue, one at a time per slot of parallel, and
// runs each with run until ctx ends: a job whose result is kept already is
// acknowledged without a run, so none runs twice after it ended; a job
// stays this worker's while it runs (word is sent every third of the ack
// wait); one whose run gives no result (stopped, or failed by a rate
// limit) goes back for another worker, and run's error is the job's
// result, an error of the eval.
func (q *Queue) Work(ctx context.Context, parallel int, run func(Job) (*Result, error)) error {
	cons, err := q.js.Consumer(ctx, jobsStream, jobsConsumer)
	if err != nil {
		return i18n.Wrap(ErrQueue, "eval.queue", err)
	}
	slots := make(chan struct{}, max(parallel, 1))
	for ctx.Err() == nil {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			<-slots
			if ctx.Err() != nil {
				return nil
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		got := false
		for m := range batch.Messages() {
			got = true
			go func() {
				defer func() { <-slots }()
				q.handle(ctx, m, run)
			}()
		}
		if !got {
			<-slots
		}
	}
	return nil
}

func (q *Queue) handle(ctx context.Context, m jetstream.Msg, run func(Job) (*Result, error)) {
	var j Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		_ = m.Term()
		return
	}
	key := jobKey(j.Eval, j.Task, j.Variant.Label(), j.Rep)
	if _, err := q.results.Get(ctx, key); err == nil {
		_ = m.Ack()
		return
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(max(q.ackWait/3, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = m.InProgress()
			case <-done:
				return
			}
		}
	}()
	r, err := run(j)
	close(done)
	switch {
	case err != nil:
		// A run this worker cannot make (its suite, its disk) is an error
		// of the eval's table, not a job for the next worker to fail too.
		r = &Result{Task: j.Task, Variant: j.Variant.Label(), Rep: j.Rep, Error: err.Error()}
	case r == nil:
		// Stopped, or failed by a rate limit: another worker, later.
		_ = m.NakWithDelay(rateBackoff)
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		_ = m.Nak()
		return
	}
	// The first result of a job stands: a worker that took it over after
	// this one went quiet keeps its own run, not its result.
	if _, err := q.results.Create(ctx, key, b); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		_ = m.Nak()
		return
	}
	_ = m.Ack()
}

// Unpack writes a job's suite and fixtures in a folder of its own under
// dir and reads the suite from there.
func (j Job) Unpack(dir string) (*Suite, error) {
	dir = filepath.Join(dir, j.Eval, "suites", jobKey(j.Eval, j.Task, j.Variant.Label(), j.Rep))
	path := filepath.Join(dir, filepath.Base(j.Suite))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range j.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, ok := inside(dir, f.Path); !ok {
			return nil, fmt.Errorf("%w: fixture %s is outside the suite's folder", ErrSuite, f.Path)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, f.Data, fs.FileMode(f.Mode)|0o600); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(path, []byte(j.Source), 0o644); err != nil {
		return nil, err
	}
	s, err := parse(path, j.Source, false)
	if err != nil {
		return nil, err
	}
	// The job's task's fixtures are here, an empty one too; the other
	// tasks' are not, and are not run here.
	for _, t := range s.Tasks {
		if t.ID != j.Task {
			continue
		}
		for _, rel := range []string{t.Workspace, t.Vault} {
			if rel == "" {
				continue
			}
			if _, ok := inside(dir, rel); !ok {
				return nil, fmt.Errorf("%w: fixture %s is outside the suite's folder", ErrSuite, rel)
			}
			if err := os.MkdirAll(s.fixture(rel), 0o755); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// RunOn runs ev's missing runs on the queue's workers: it puts them on the
// queue, then saves each result in st as a worker gives it, until every
// run has its result. Closing stop takes the runs no worker has taken off
// the queue and stops waiting: those are left for a resume. progress, when
// set, hears of each result.
func (q *Queue) RunOn(ctx context.Context, stop <-chan struct{}, st *store.Store, s *Suite, ev *Eval, progress func(Progress)) error {
	jobs, err := JobsOf(s, ev)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, j := range jobs {
		want[jobKey(j.Eval, j.Task, j.Variant.Label(), j.Rep)] = true
	}
	total := len(ev.Tasks) * len(ev.Variants) * max(ev.Repeat, 1)
	done := total - len(jobs)
	watchCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	results, err := q.Results(watchCtx, ev.ID)
	if err != nil {
		return i18n.Wrap(ErrQueue, "eval.queue", err)
	}
	if err := q.Publish(ctx, jobs); err != nil {
		return err
	}
	stopped := false
	for len(want) > 0 && !stopped {
		select {
		case r, ok := <-results:
			if !ok {
				stopped = true
				break
			}
			k := jobKey(ev.ID, r.Task, r.Variant, r.Rep)
			if !want[k] {
				continue // a result from before, or a stranger's
			}
			delete(want, k)
			if err := SaveResult(st, ev.ID, r); err != nil {
				return err
			}
			ev.Results = append(ev.Results, r)
			done++
			if progress != nil {
				progress(Progress{Task: r.Task, Variant: r.Variant, Rep: r.Rep, RunID: r.RunID, Result: &r, Done: done, Total: total})
			}
		case <-stop:
			stopped = true
		case <-ctx.Done():
			stopped = true
		}
	}
	if stopped {
		wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = q.Withdraw(wctx, ev.ID)
		wcancel()
	}
	ev.Results = dedupe(ev)
	ev.sortResults()
	ev.State = StateDone
	if stopped || len(missing(s, ev)) > errorsOf(ev) {
		ev.State = StateStopped
	}
	ev.Ended = time.Now().UTC()
	return SaveEval(st, ev)
}
