package cluster

import (
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// A replica's live runs travel on core NATS, not JetStream: they are the
// replica's to keep (its log and checkpoints), and a viewer that misses a
// message asks the replica for what it missed.
//
//	hermes.runs.summaries          every change of a run's summary, from every replica
//	hermes.runs.<run>.events       a run's events as they happen
//	hermes.replica.<replica>.runs     request: the replica's live runs
//	hermes.replica.<replica>.history  request: a run's events after a seq
//	hermes.replica.<replica>.control  request: a control or an approval for a run
const subjectSummaries = "hermes.runs.summaries"

func eventsSubject(runID string) string { return "hermes.runs." + keyOf(runID) + ".events" }

func replicaSubject(replica, what string) string {
	return "hermes.replica." + keyOf(replica) + "." + what
}

// historyLimit bounds the events of one history reply, under the 1 MB a
// NATS message may carry by default; the viewer asks again for the rest.
const historyLimit = 256 << 10

// requestTimeout bounds a request to a replica: it answers from memory.
const requestTimeout = 5 * time.Second

// RunSource is what a replica serves of its runs: its runner.Manager.
type RunSource interface {
	Live() []runner.Summary
	Watch(id string, after int64) (*runapi.Watcher, error)
	Control(id string, c agent.Control) error
	Approve(id, approvalID string, a runner.Answer) error
	Bus() *event.Bus
	Feed() *runapi.Feed
}

type historyRequest struct {
	RunID string `json:"run_id"`
	After int64  `json:"after"`
}

type historyReply struct {
	Events []event.Event `json:"events"`
	// Ended: the run's leg is over and Events are its last. More: the
	// reply was cut at historyLimit; ask again after its last event.
	Ended bool             `json:"ended,omitempty"`
	More  bool             `json:"more,omitempty"`
	Error *runner.APIError `json:"error,omitempty"`
}

type controlRequest struct {
	RunID      string         `json:"run_id"`
	Control    *agent.Control `json:"control,omitempty"`
	ApprovalID string         `json:"approval_id,omitempty"`
	Answer     *runner.Answer `json:"answer,omitempty"`
}

type controlReply struct {
	Error *runner.APIError `json:"error,omitempty"`
}

// replicaID is the id this replica announces itself by.
func (cl *Cluster) replicaID() string {
	if cl.name != "" {
		return cl.name
	}
	_, id := replicaKey()
	return id
}

// ServeRuns makes the runs of this replica seen and steered from the
// window and `hermes serve` of any machine on the cluster (Observe): it
// relays their events and summary changes, and answers requests for their
// list, their events so far, and controls and approvals, which go to runs
// as a person's at this replica would. stop ends it.
func (cl *Cluster) ServeRuns(runs RunSource) (stop func(), err error) {
	me := cl.replicaID()
	handlers := map[string]nats.MsgHandler{
		"runs": func(m *nats.Msg) {
			live := runs.Live()
			for i := range live {
				live[i].Replica = me
			}
			respond(m, live)
		},
		"history": func(m *nats.Msg) {
			var req historyRequest
			if err := json.Unmarshal(m.Data, &req); err != nil {
				respond(m, historyReply{Error: explain(err)})
				return
			}
			w, err := runs.Watch(req.RunID, req.After)
			if err != nil {
				respond(m, historyReply{Error: explain(err)})
				return
			}
			events, more := w.Next()
			respond(m, pack(events, more == nil))
		},
		"control": func(m *nats.Msg) {
			var req controlRequest
			err := json.Unmarshal(m.Data, &req)
			switch {
			case err != nil:
			case req.Control != nil:
				err = runs.Control(req.RunID, *req.Control)
			case req.Answer != nil:
				err = runs.Approve(req.RunID, req.ApprovalID, *req.Answer)
			}
			var reply controlReply
			if err != nil {
				reply.Error = explain(err)
			}
			respond(m, reply)
		},
	}
	var subs []*nats.Subscription
	unsubscribe := func() {
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}
	for what, h := range handlers {
		s, err := cl.nc.Subscribe(replicaSubject(me, what), h)
		if err != nil {
			unsubscribe()
			return nil, errors.Join(ErrUnavailable, err)
		}
		subs = append(subs, s)
	}
	// Events may be dropped by a busy bus or by NATS: a viewer notices the
	// gap in seq and asks for the history.
	bus := runs.Bus().Subscribe(4096, nil)
	feed := runs.Feed()
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for e := range bus.C {
			if data, err := json.Marshal(e); err == nil {
				_ = cl.nc.Publish(eventsSubject(e.RunID), data)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-feed.Ready():
				for _, s := range feed.Take() {
					s.Replica = me
					if data, err := json.Marshal(s); err == nil {
						_ = cl.nc.Publish(subjectSummaries, data)
					}
				}
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			unsubscribe()
			runs.Bus().Unsubscribe(bus)
			close(quit)
			feed.Close()
			wg.Wait()
		})
	}, nil
}

// pack is the history reply for events, cut at historyLimit.
func pack(events []event.Event, ended bool) historyReply {
	size := 0
	for i, e := range events {
		size += len(e.Data) + 128 // the envelope's fields, roughly
		if size > historyLimit && i > 0 {
			return historyReply{Events: events[:i], More: true}
		}
	}
	return historyReply{Events: events, Ended: ended}
}

func explain(err error) *runner.APIError {
	e := runner.Explain(err)
	return &e
}

func respond(m *nats.Msg, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	_ = m.Respond(data) // a requester that left asks again
}

// replicaGone is the error of a request no replica answered.
func replicaGone(replica string, err error) error {
	return runner.NewAPIError("replica_gone", i18n.Wrap(errors.Join(ErrReplicaGone, err), "cluster.replica_gone", replica))
}

// request sends v to replica's what and decodes its reply into out.
func request(nc *nats.Conn, replica, what string, v, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	m, err := nc.Request(replicaSubject(replica, what), data, requestTimeout)
	if err != nil {
		return replicaGone(replica, err)
	}
	return json.Unmarshal(m.Data, out)
}

// fetchHistory returns the events of run after seq after that replica
// holds, and whether the run's leg is over.
func fetchHistory(nc *nats.Conn, replica, run string, after int64) ([]event.Event, bool, error) {
	var all []event.Event
	for {
		var r historyReply
		if err := request(nc, replica, "history", historyRequest{RunID: run, After: after}, &r); err != nil {
			return all, false, err
		}
		if r.Error != nil {
			return all, false, *r.Error
		}
		all = append(all, r.Events...)
		if len(r.Events) > 0 {
			after = r.Events[len(r.Events)-1].Seq
		}
		if !r.More {
			return all, r.Ended, nil
		}
	}
}
