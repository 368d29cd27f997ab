package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"slices"
	"strconv"

	"hermes/backend/api"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// maxBody bounds a request body; the largest is an edited task.
const maxBody = 1 << 20

// listRuns answers GET /api/runs. Without a query it is every run, as an
// array (older clients); with limit, before, status, label or q it is one page,
// {"runs": [...], "next": CURSOR}, read from the summaries kept in hermes.db.
// Logs that cannot be read are left out; the rest are still listed.
func (s *server) listRuns(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	if !v.Has("limit") && !v.Has("before") && !v.Has("status") && !v.Has("q") && !v.Has("label") {
		runs, err := s.runs.List()
		if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, runs)
		return
	}
	q := runapi.ListQuery{Before: v.Get("before"), Status: v.Get("status"), Label: v.Get("label"), Search: v.Get("q")}
	if q.Label != "" && q.Label != store.LabelGood && q.Label != store.LabelBad {
		writeAPIError(w, api.Error{Code: "bad_label", Message: bothLanguages("eval.bad_label_filter")})
		return
	}
	n, err := intParam(v.Get("limit"))
	if err != nil {
		writeError(w, err)
		return
	}
	q.Limit = n
	page, err := s.runPage(q)
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		writeError(w, err)
		return
	}
	if page.Runs == nil {
		page.Runs = []api.Summary{}
	}
	writeJSON(w, http.StatusOK, page)
}

// runPage asks the runs for a page, or pages their whole list when they
// cannot (a client of a remote owner).
func (s *server) runPage(q runapi.ListQuery) (api.RunPage, error) {
	if p, ok := s.runs.(runapi.Pager); ok {
		return p.ListPage(q)
	}
	all, err := s.runs.List()
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		return api.RunPage{}, err
	}
	var (
		page api.RunPage
		i    int
	)
	if q.Before != "" {
		i = slices.IndexFunc(all, func(r api.Summary) bool { return r.RunID == q.Before }) + 1
		if i == 0 {
			return api.RunPage{}, i18n.Wrap(runlog.ErrBadCursor, "runlog.bad_cursor", q.Before)
		}
	}
	for _, r := range all[i:] {
		if !q.Matches(r.Summary, r.Title) {
			continue
		}
		if q.Limit > 0 && len(page.Runs) == q.Limit {
			page.Next = page.Runs[len(page.Runs)-1].RunID
			break
		}
		page.Runs = append(page.Runs, r)
	}
	return page, err
}

// runEvents answers GET /api/runs/{id}/events: the run's events in seq order.
func (s *server) runEvents(w http.ResponseWriter, r *http.Request) {
	events, err := s.runs.Events(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if events == nil {
		events = []event.Event{}
	}
	writeJSON(w, http.StatusOK, events)
}

func (s *server) startRun(w http.ResponseWriter, r *http.Request) {
	var req api.StartRequest
	if !decode(w, r, &req, false) {
		return
	}
	id, err := s.runs.Start(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, api.RunRef{RunID: id})
}

func (s *server) control(w http.ResponseWriter, r *http.Request) {
	var c api.Control
	if !decode(w, r, &c, false) {
		return
	}
	accepted(w, s.runs.Control(r.PathValue("id"), c))
}

func (s *server) approve(w http.ResponseWriter, r *http.Request) {
	var a api.Answer
	if !decode(w, r, &a, false) {
		return
	}
	accepted(w, s.runs.Approve(r.PathValue("id"), r.PathValue("approval_id"), a))
}

func (s *server) resume(w http.ResponseWriter, r *http.Request) {
	var o api.Overrides
	if !decode(w, r, &o, true) {
		return
	}
	id := r.PathValue("id")
	if err := s.runs.Resume(r.Context(), id, o); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, api.RunRef{RunID: id})
}

func (s *server) fork(w http.ResponseWriter, r *http.Request) {
	var req api.ForkRequest
	if !decode(w, r, &req, false) {
		return
	}
	id, err := s.runs.Fork(r.Context(), r.PathValue("id"), req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, api.RunRef{RunID: id})
}

func (s *server) rename(w http.ResponseWriter, r *http.Request) {
	var body api.RenameRequest
	if !decode(w, r, &body, false) {
		return
	}
	noContent(w, s.runs.Rename(r.PathValue("id"), body.Title))
}

func (s *server) deleteRun(w http.ResponseWriter, r *http.Request) {
	noContent(w, s.runs.Delete(r.PathValue("id")))
}

// artifact answers GET /api/runs/{id}/artifacts?ref=REF&offset=N&limit=N
// with the bytes of a full tool output and its whole size.
func (s *server) artifact(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	offset, err1 := intParam(q.Get("offset"))
	limit, err2 := intParam(q.Get("limit"))
	if err := errors.Join(err1, err2); err != nil {
		writeError(w, err)
		return
	}
	data, total, err := s.runs.Artifact(r.PathValue("id"), q.Get("ref"), offset, limit)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Total-Size", strconv.Itoa(total))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data) // a failed write means the client left
}

func (s *server) settings(w http.ResponseWriter, _ *http.Request) {
	st, err := s.runs.Settings()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// checkModel answers whether the endpoint is there and takes the key. A
// failed check is an answer, not a failed request.
func (s *server) checkModel(w http.ResponseWriter, r *http.Request) {
	var o api.Overrides
	if !decode(w, r, &o, true) {
		return
	}
	writeJSON(w, http.StatusOK, s.runs.CheckModel(r.Context(), o))
}

// identify answers GET /api/owner: which process owns the home.
func (s *server) identify(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.owner.Identity())
}

func (s *server) noEndpoint(w http.ResponseWriter, r *http.Request) {
	writeAPIError(w, runner.NewAPIError("no_endpoint", i18n.Errorf("server.no_endpoint", r.Method, r.URL.Path)))
}

// noUI is the page of a build without the web UI: it says how to get one.
func noUI(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Hermes</title><p>%s</p><p lang=zh-CN>%s</p>",
		html.EscapeString(i18n.In(i18n.EN, "server.no_ui")), html.EscapeString(i18n.In(i18n.ZH, "server.no_ui")))
}

// decode reads a JSON body into v; an empty body is allowed when optional.
// It answers the request itself when the body is not valid.
func decode(w http.ResponseWriter, r *http.Request, v any, optional bool) bool {
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(v)
	if err == nil || optional && errors.Is(err, io.EOF) {
		return true
	}
	writeAPIError(w, runner.NewAPIError("bad_request", i18n.Errorf("server.bad_json", err.Error())))
	return false
}

func intParam(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q: %w", s, runlog.ErrBadRange)
	}
	return n, nil
}

func accepted(w http.ResponseWriter, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func noContent(w http.ResponseWriter, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func writeError(w http.ResponseWriter, err error) { writeAPIError(w, runner.Explain(err)) }

func writeAPIError(w http.ResponseWriter, e api.Error) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(statusOf(e.Code))
	_, _ = w.Write(e.JSON()) // the status line is sent; a failed write means the client left
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
