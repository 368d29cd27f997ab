package cluster

import (
	"context"
	"errors"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/api"
	"hermes/backend/event"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

// Merge is the runs of local and the live runs of the cluster as one
// runapi.Runs, for the window and `hermes serve` to show and steer alike:
// the list has the replicas' runs, each with its Replica, their events are
// watched and their controls and approvals go to the replica that runs
// them. Everything else is local's. Use one per Observer; Close the
// Observer to end it.
func (ob *Observer) Merge(local runapi.Runs) runapi.Runs {
	o := &observed{Runs: local, ob: ob}
	lf := local.Feed()
	ob.wg.Add(1)
	go func() {
		defer ob.wg.Done()
		defer lf.Close()
		for {
			select {
			case <-lf.Ready():
				for _, s := range lf.Take() {
					ob.feeds.Publish(s)
				}
			case <-ob.ctx.Done():
				return
			}
		}
	}()
	if n, ok := local.(noticer); ok {
		return &observedNotices{observed: o, n: n}
	}
	return o
}

type noticer interface{ Notices() *runner.NoticeBoard }

// observedNotices is observed over a local that has notices (the Manager
// of the home's owner): the server shows them.
type observedNotices struct {
	*observed
	n noticer
}

func (o *observedNotices) Notices() *runner.NoticeBoard { return o.n.Notices() }

type observed struct {
	runapi.Runs
	ob  *Observer
	bus sync.Once
}

var (
	_ runapi.Runs  = (*observed)(nil)
	_ runapi.Pager = (*observed)(nil)
)

// cluster reports whether id is a replica's run. One this process does not
// know either may have started since the list was read: the list is read
// again for it.
func (o *observed) cluster(id string, localErr error) bool {
	if o.ob.replicaOf(id) != "" {
		return true
	}
	if !errors.Is(localErr, runlog.ErrRunNotFound) {
		return false
	}
	o.ob.List()
	return o.ob.replicaOf(id) != ""
}

// List is local's live runs, the cluster's, then local's others.
func (o *observed) List() ([]runner.Summary, error) {
	runs, err := o.Runs.List()
	return o.merge(runs), err
}

func (o *observed) merge(runs []runner.Summary) []runner.Summary {
	i := 0
	for i < len(runs) && runs[i].Live {
		i++
	}
	mine := map[string]bool{}
	for _, s := range runs {
		mine[s.RunID] = true
	}
	var theirs []runner.Summary
	for _, s := range o.ob.List() {
		if !mine[s.RunID] {
			theirs = append(theirs, s)
		}
	}
	out := make([]runner.Summary, 0, len(runs)+len(theirs))
	return append(append(append(out, runs[:i]...), theirs...), runs[i:]...)
}

// ListPage is local's page; the first has the cluster's runs q asks for
// after local's live ones.
func (o *observed) ListPage(q runapi.ListQuery) (runner.RunPage, error) {
	p, ok := o.Runs.(runapi.Pager)
	if !ok {
		all, err := o.List()
		page := runner.RunPage{Runs: []runner.Summary{}}
		if q.Before == "" {
			for _, s := range all {
				if q.Matches(s.Summary, s.Title) {
					page.Runs = append(page.Runs, s)
				}
			}
		}
		return page, err
	}
	page, err := p.ListPage(q)
	if err != nil || q.Before != "" {
		return page, err
	}
	runs := page.Runs
	page.Runs = nil
	for _, s := range o.merge(runs) {
		if s.Replica == "" || q.Matches(s.Summary, s.Title) {
			page.Runs = append(page.Runs, s)
		}
	}
	return page, err
}

func (o *observed) Events(id string) ([]event.Event, error) {
	if o.ob.replicaOf(id) != "" {
		return o.ob.Events(id)
	}
	events, err := o.Runs.Events(id)
	if err != nil && o.cluster(id, err) {
		return o.ob.Events(id)
	}
	return events, err
}

func (o *observed) Watch(id string, after int64) (*runapi.Watcher, error) {
	if w, ok := o.ob.Watch(id, after); ok {
		return w, nil
	}
	w, err := o.Runs.Watch(id, after)
	if err != nil && o.cluster(id, err) {
		if w, ok := o.ob.Watch(id, after); ok {
			return w, nil
		}
	}
	return w, err
}

// Feed has the changes of local's runs and the cluster's.
func (o *observed) Feed() *runapi.Feed { return o.ob.feeds.Feed() }

// Bus carries the events of local's live runs and, from the first call
// on, of every live run of the cluster (the window forwards them all).
func (o *observed) Bus() *event.Bus {
	o.bus.Do(func() {
		sub := o.Runs.Bus().Subscribe(4096, nil)
		o.ob.wg.Add(1)
		go func() {
			defer o.ob.wg.Done()
			defer o.Runs.Bus().Unsubscribe(sub)
			for {
				select {
				case e := <-sub.C:
					o.ob.bus.Publish(e)
				case <-o.ob.ctx.Done():
					return
				}
			}
		}()
		o.ob.follow()
	})
	return o.ob.bus
}

func (o *observed) Control(id string, c agent.Control) error {
	if o.ob.replicaOf(id) != "" {
		return o.ob.Control(id, c)
	}
	err := o.Runs.Control(id, c)
	if err != nil && o.cluster(id, err) {
		return o.ob.Control(id, c)
	}
	return err
}

func (o *observed) Approve(id, approvalID string, a runner.Answer) error {
	if o.ob.replicaOf(id) != "" {
		return o.ob.Approve(id, approvalID, a)
	}
	err := o.Runs.Approve(id, approvalID, a)
	if err != nil && o.cluster(id, err) {
		return o.ob.Approve(id, approvalID, a)
	}
	return err
}

// ClusterStatus is the cluster as `hermes bot --cluster-status` shows it
// (GET /api/cluster).
func (o *observed) ClusterStatus(ctx context.Context) api.ClusterStatus {
	out := api.ClusterStatus{Enabled: true, Replicas: []api.ClusterReplica{}}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	st, err := o.ob.Status(ctx)
	if err != nil {
		e := runner.NewAPIError("cluster_unavailable", err)
		out.Error = &e
	}
	if st.Replicas != nil {
		out.Replicas = st.Replicas
	}
	out.Queue = st.Queue
	return out
}
