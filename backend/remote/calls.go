package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"hermes/backend/api"
	"hermes/backend/event"
	"hermes/backend/homelock"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
)

// callTimeout bounds a call that has no context of its own; the owner
// answers those from its files at once.
const callTimeout = 30 * time.Second

// Error is an error the owner answered with, as its local API showed it;
// the local API of this process (runner.Explain) shows it the same way
// again.
type Error struct{ API api.Error }

func (e *Error) Error() string {
	if m := e.API.Message[string(i18n.Current())]; m != "" {
		return m
	}
	return e.API.Message[string(i18n.EN)]
}

// Unwrap gives the APIError, for errors.As.
func (e *Error) Unwrap() error { return e.API }

// List returns the owner's runs: the live ones first, then the logged ones.
func (c *Client) List() ([]api.Summary, error) {
	var out []api.Summary
	return out, c.quick(http.MethodGet, "/api/runs", nil, &out)
}

// ListPage returns one page of the owner's runs, read from the summaries it
// keeps in hermes.db (GET /api/runs?limit=&before=&status=&label=&q=).
func (c *Client) ListPage(q runapi.ListQuery) (api.RunPage, error) {
	v := url.Values{"limit": {strconv.Itoa(q.Limit)}}
	for k, s := range map[string]string{"before": q.Before, "status": q.Status, "label": q.Label, "q": q.Search} {
		if s != "" {
			v.Set(k, s)
		}
	}
	var out api.RunPage
	return out, c.quick(http.MethodGet, "/api/runs?"+v.Encode(), nil, &out)
}

var _ runapi.Pager = (*Client)(nil)

// Page asks the owner that l names for one page of its runs, with one
// request and nothing followed: for a command that only lists (`hermes
// runs` while the owner holds hermes.db).
func Page(ctx context.Context, l homelock.Lock, q runapi.ListQuery) (api.RunPage, error) {
	c := &Client{owner: l, base: "http://" + l.Addr, http: &http.Client{}, ctx: ctx}
	return c.ListPage(q)
}

// Events returns every event of a run so far, in seq order.
func (c *Client) Events(id string) ([]event.Event, error) {
	var out []event.Event
	return out, c.quick(http.MethodGet, runPath(id, "/events"), nil, &out)
}

// Start starts a run in the owner and follows it.
func (c *Client) Start(ctx context.Context, req api.StartRequest) (string, error) {
	var ref api.RunRef
	if err := c.call(ctx, http.MethodPost, "/api/runs", req, &ref); err != nil {
		return "", err
	}
	c.follow(ref.RunID)
	return ref.RunID, nil
}

// Resume takes a run up again in the owner and follows it.
func (c *Client) Resume(ctx context.Context, id string, o api.Overrides) error {
	if err := c.call(ctx, http.MethodPost, runPath(id, "/resume"), o, nil); err != nil {
		return err
	}
	c.follow(id)
	return nil
}

// Fork starts a run in the owner from iteration req.Iteration of run id.
func (c *Client) Fork(ctx context.Context, id string, req api.ForkRequest) (string, error) {
	var ref api.RunRef
	if err := c.call(ctx, http.MethodPost, runPath(id, "/fork"), req, &ref); err != nil {
		return "", err
	}
	c.follow(ref.RunID)
	return ref.RunID, nil
}

// Control queues a control for one of the owner's live runs.
func (c *Client) Control(id string, ctl api.Control) error {
	return c.quick(http.MethodPost, runPath(id, "/control"), ctl, nil)
}

// Approve answers the approval one of the owner's live runs waits for.
func (c *Client) Approve(id, approvalID string, a api.Answer) error {
	return c.quick(http.MethodPost, runPath(id, "/approvals/"+url.PathEscape(approvalID)), a, nil)
}

// Rename gives a run a title.
func (c *Client) Rename(id, title string) error {
	return c.quick(http.MethodPatch, runPath(id, ""), map[string]string{"title": title}, nil)
}

// Delete removes a run that is not live.
func (c *Client) Delete(id string) error {
	return c.quick(http.MethodDelete, runPath(id, ""), nil, nil)
}

// Settings are the settings a new run in the owner would use.
func (c *Client) Settings() (api.Settings, error) {
	var s api.Settings
	return s, c.quick(http.MethodGet, "/api/settings", nil, &s)
}

// CheckModel asks the owner whether its model endpoint answers.
func (c *Client) CheckModel(ctx context.Context, o api.Overrides) api.ModelCheck {
	var mc api.ModelCheck
	if err := c.call(ctx, http.MethodPost, "/api/model/check", o, &mc); err != nil {
		// The error the owner answered with, as it showed it; else why it
		// did not answer.
		var e api.Error
		if !errors.As(err, &e) {
			e = api.Error{Code: "internal", Message: map[string]string{
				string(i18n.EN): i18n.MessageIn(i18n.EN, err), string(i18n.ZH): i18n.MessageIn(i18n.ZH, err),
			}}
		}
		return api.ModelCheck{Error: &e}
	}
	return mc
}

// Artifact returns up to limit bytes of a full tool output from offset,
// and its whole size.
func (c *Client) Artifact(id, ref string, offset, limit int) ([]byte, int, error) {
	q := url.Values{"ref": {ref}, "offset": {strconv.Itoa(offset)}, "limit": {strconv.Itoa(limit)}}
	ctx, cancel := context.WithTimeout(c.ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+runPath(id, "/artifacts?"+q.Encode()), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("artifact %s: %w", ref, err)
	}
	res, err := c.do(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, 0, c.unreachable(err)
	}
	total, _ := strconv.Atoi(res.Header.Get("X-Total-Size"))
	return b, total, nil
}

func runPath(id, rest string) string { return "/api/runs/" + url.PathEscape(id) + rest }

// quick is call for the calls that have no context of their own.
func (c *Client) quick(method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(c.ctx, callTimeout)
	defer cancel()
	return c.call(ctx, method, path, body, out)
}

// call sends body as JSON and decodes the answer into out (when not nil).
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if method != http.MethodGet {
		// Even without a body: the owner takes a change only as JSON.
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return c.unreachable(fmt.Errorf("%s %s: %w", method, path, err))
	}
	return nil
}

// do sends req with the owner's token. An answer that is not 2xx is the
// owner's *Error.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+c.owner.Token)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, c.unreachable(err)
	}
	if res.StatusCode/100 == 2 {
		return res, nil
	}
	defer res.Body.Close()
	var body api.ErrorBody
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Error.Code == "" {
		return nil, c.unreachable(fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, res.Status))
	}
	return nil, &Error{API: body.Error}
}

// unreachable is the error of a call the owner did not answer.
func (c *Client) unreachable(err error) error {
	return i18n.Wrap(fmt.Errorf("%w: %w", ErrOwnerGone, err), "remote.owner_gone", c.owner.Mode, c.owner.PID)
}
