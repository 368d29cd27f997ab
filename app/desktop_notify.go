package app

import (
	"context"
	"log"
	"sync"

	"hermes/backend/config"
	"hermes/backend/desktoplink"
	"hermes/backend/event"
	"hermes/backend/notify"
	"hermes/backend/runapi"
)

// newNotifier is the system's notifier; tests replace it.
var newNotifier = func() (notify.Notifier, error) { return notify.New("Hermes") }

// moment is an event to tell the person of, with the task of its run.
type moment struct {
	e    event.Event
	task string
}

// startNotify sends a notification when a run needs the person while the
// window is behind ([desktop] notify), and calls show with the run of
// each notification clicked.
func (a *App) startNotify(ctx context.Context, show func(runID string)) {
	n, err := newNotifier()
	if err != nil {
		log.Printf("desktop notifications are off: %v", err)
		return
	}
	sub := a.runs.Bus().Subscribe(64, func(e event.Event) bool {
		_, ok := notify.KindOf(e)
		return ok || e.Type == event.RunStarted
	})
	// The bus waits for its subscribers: the events are taken at once, and
	// the notes, which call the system, sent apart. A burst beyond the
	// queue loses notes, never holds a run up.
	moments := make(chan moment, 16)
	nctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		defer close(moments)
		tasks := map[string]string{}
		for e := range sub.C {
			m, ok := a.moment(e, tasks)
			if a.desk.decided != nil {
				a.desk.decided(e, ok)
			}
			if ok {
				select {
				case moments <- m:
				default:
				}
			}
		}
	}()
	go func() {
		defer wg.Done()
		for m := range moments {
			a.send(m, n)
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case id, ok := <-n.Clicks():
				if !ok {
					return
				}
				show(id)
			case <-nctx.Done():
				return
			}
		}
	}()
	a.desk.mu.Lock()
	a.desk.stop = func() {
		sub.Close()
		cancel()
		_ = n.Close()
		wg.Wait()
	}
	a.desk.mu.Unlock()
}

// moment says whether e is to be told, with its run's task, which tasks
// remembers of each run seen starting.
func (a *App) moment(e event.Event, tasks map[string]string) (moment, bool) {
	if e.Type == event.RunStarted {
		if d, err := event.Decode[event.RunStartedData](e); err == nil {
			tasks[e.RunID] = d.Task
		}
		return moment{}, false
	}
	task := tasks[e.RunID]
	if e.Type == event.RunFinished {
		delete(tasks, e.RunID)
	}
	if a.desk.focused.Load() || !a.notifyOn() {
		return moment{}, false // in front, the window says it itself
	}
	return moment{e: e, task: task}, true
}

// send sends the note of m.
func (a *App) send(m moment, n notify.Notifier) {
	note, ok := notify.For(m.e, a.runTitle(m.e.RunID, m.task))
	if !ok {
		return
	}
	note.Link = desktoplink.Run(a.host.Home(), m.e.RunID)
	if err := n.Send(note); err != nil {
		log.Print(err)
	}
}

// notifyOn reads [desktop] notify from hermes.toml as it is now, so that
// turning it off needs no restart; a file that does not load leaves them
// on.
func (a *App) notifyOn() bool {
	cfg, err := config.Load(config.Path(a.host.Home()))
	if err != nil {
		return true
	}
	return cfg.Desktop.Notify
}

// runTitle is how a person knows the run: its title, else its task.
func (a *App) runTitle(id, task string) string {
	if pager, ok := a.runs.(runapi.Pager); ok {
		// The live runs come first in the first page; a run that asks is live.
		if page, err := pager.ListPage(runapi.ListQuery{Limit: 1}); err == nil {
			for _, s := range page.Runs {
				if s.RunID == id {
					if s.Title != "" {
						return s.Title
					}
					return s.Task
				}
			}
		}
	}
	return task
}
