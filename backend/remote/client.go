// Package remote is the client of the local API of the process that owns
// a home (backend/homelock says which, and where): a Client serves the
// owner's runs as runapi.Runs, as the owner's runner.Manager does, so that
// the window, hermes serve and the commands work on either alike.
package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"hermes/backend/api"
	"hermes/backend/event"
	"hermes/backend/homelock"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
)

// Client is a process attached to the owner of a home: it serves the
// owner's runs through the owner's local API as runapi.Runs, so the window
// and `hermes serve` work on it as on a Manager. It follows the owner's run
// list, and the events of every live run, which it relays to its Bus.
type Client struct {
	owner homelock.Lock
	base  string
	http  *http.Client
	bus   *event.Bus
	feeds runapi.Feeds

	// ctx ends every stream on Shutdown.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	gone   chan struct{}

	mu sync.Mutex
	// followed are the live runs whose events are relayed to the bus.
	followed map[string]*runapi.Log
}

var _ runapi.Runs = (*Client)(nil)

// Dial attaches to the owner that l names. It fails when the owner does not
// answer.
func Dial(ctx context.Context, l homelock.Lock) (*Client, error) {
	cctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		owner: l, base: "http://" + l.Addr, http: &http.Client{}, bus: event.NewBus(),
		ctx: cctx, cancel: cancel, gone: make(chan struct{}), followed: map[string]*runapi.Log{},
	}
	// ctx bounds the dialling only; the streams last as long as the client.
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	// The feed first, then the list: a run that starts in between is in one
	// or the other.
	res, err := c.open(cctx, "/api/runs/stream")
	if err != nil {
		cancel()
		return nil, err
	}
	c.wg.Add(1)
	go c.readFeed(res.Body)
	runs, err := c.List()
	if err != nil {
		_ = c.Shutdown(context.Background()) // the feed ends at once
		return nil, err
	}
	for _, s := range runs {
		if s.Live {
			c.follow(s.RunID)
		}
	}
	return c, nil
}

// Owner is the lock of the process this client is attached to.
func (c *Client) Owner() homelock.Lock { return c.owner }

// Gone is closed when the owner stops answering: it exited, or was killed.
func (c *Client) Gone() <-chan struct{} { return c.gone }

// Bus carries the events of the owner's live runs.
func (c *Client) Bus() *event.Bus { return c.bus }

// Feed returns a new feed of the owner's run changes; Close it when done.
func (c *Client) Feed() *runapi.Feed { return c.feeds.Feed() }

// Watch follows a run's events after seq after, as the owner streams them.
func (c *Client) Watch(id string, after int64) (*runapi.Watcher, error) {
	c.mu.Lock()
	r := c.followed[id]
	c.mu.Unlock()
	if r != nil {
		return r.Watch(after), nil
	}
	// Not live, or not heard of yet: a stream of its own, which ends with
	// the run's leg, or at once for a run that is not live.
	res, err := c.open(c.ctx, "/api/runs/"+url.PathEscape(id)+"/stream?after="+strconv.FormatInt(after, 10))
	if err != nil {
		return nil, err
	}
	r = runapi.NewLog()
	c.wg.Add(1)
	go c.relay(r, res.Body, false)
	return r.Watch(after), nil
}

// Shutdown ends the streams from the owner and waits for them. The owner's
// runs go on: they are the owner's to stop.
func (c *Client) Shutdown(ctx context.Context) error {
	c.cancel()
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// follow relays the events of a live run to the bus, once.
func (c *Client) follow(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.followed[id]; ok || c.ctx.Err() != nil {
		return
	}
	res, err := c.open(c.ctx, "/api/runs/"+url.PathEscape(id)+"/stream")
	if err != nil {
		return // the owner is going; the feed's end says so
	}
	r := runapi.NewLog()
	c.followed[id] = r
	c.wg.Add(1)
	go c.relay(r, res.Body, true)
}

// relay reads a run's stream into r (and the bus, for a followed run)
// until the run's leg is over or the stream breaks.
func (c *Client) relay(r *runapi.Log, body io.ReadCloser, followed bool) {
	defer c.wg.Done()
	defer body.Close()
	_ = readSSE(body, func(m message) bool {
		if m.name != "hermes" {
			return m.name != "end"
		}
		var e event.Event
		if json.Unmarshal(m.data, &e) != nil {
			return true
		}
		r.Add(e)
		if followed {
			c.bus.Publish(e)
		}
		return true
	})
	r.End()
	if followed {
		c.mu.Lock()
		for k, v := range c.followed {
			if v == r {
				delete(c.followed, k)
			}
		}
		c.mu.Unlock()
	}
}

// readFeed passes the owner's run changes on to the feeds, and follows the
// runs that are live. When the stream breaks the owner is gone.
func (c *Client) readFeed(body io.ReadCloser) {
	defer c.wg.Done()
	defer body.Close()
	_ = readSSE(body, func(m message) bool {
		var s api.Summary
		if m.name != "run" || json.Unmarshal(m.data, &s) != nil {
			return true
		}
		if s.Live {
			c.follow(s.RunID)
		}
		c.feeds.Publish(s)
		return true
	})
	if c.ctx.Err() == nil {
		close(c.gone)
	}
}

// open starts a stream: the answer's headers are in, and its status is OK.
func (c *Client) open(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", path, err)
	}
	req.Header.Set("Accept", "text/event-stream")
	return c.do(req)
}

// Attached says, for a person, which process this one is attached to.
func (c *Client) Attached() string {
	return i18n.T("remote.attached", c.owner.Mode, c.owner.PID)
}
