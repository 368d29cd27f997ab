package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"

	"hermes/backend/i18n"
	"hermes/backend/runlog"
)

// listRuns answers GET /api/runs: every run in the home's logs, newest first.
// Logs that cannot be read are left out (runlog.List says which); the rest
// are still listed.
func (s *server) listRuns(w http.ResponseWriter, _ *http.Request) {
	runs, err := runlog.List(s.home)
	if err != nil && !errors.Is(err, runlog.ErrUnreadableLog) {
		writeError(w, http.StatusInternalServerError, "read_failed", i18n.Wrap(err, "server.list_failed", err))
		return
	}
	if runs == nil {
		runs = []runlog.Summary{}
	}
	writeJSON(w, http.StatusOK, runs)
}

// runEvents answers GET /api/runs/{id}/events: the run's events in seq order.
func (s *server) runEvents(w http.ResponseWriter, r *http.Request) {
	path, err := runlog.Find(s.home, r.PathValue("id"))
	if err != nil {
		if errors.Is(err, runlog.ErrRunNotFound) {
			writeError(w, http.StatusNotFound, "run_not_found", err)
			return
		}
		writeError(w, http.StatusInternalServerError, "read_failed", i18n.Wrap(err, "server.read_failed", err))
		return
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		code := "read_failed"
		if errors.Is(err, runlog.ErrCorruptLog) {
			code = "corrupt_log"
		}
		writeError(w, http.StatusInternalServerError, code, i18n.Wrap(err, "server.read_failed", err))
		return
	}
	if events == nil {
		writeJSON(w, http.StatusOK, []struct{}{})
		return
	}
	writeJSON(w, http.StatusOK, events)
}

func (s *server) noEndpoint(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, "no_endpoint", i18n.Errorf("server.no_endpoint", r.Method, r.URL.Path))
}

// noUI is the page of a build without the web UI: it says how to get one.
func noUI(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Hermes</title><p>%s</p><p lang=zh-CN>%s</p>",
		html.EscapeString(i18n.In(i18n.EN, "server.no_ui")), html.EscapeString(i18n.In(i18n.ZH, "server.no_ui")))
}

// apiError is the body of every failed API request. The message comes in
// both languages, so the UI shows the one it is set to.
type apiError struct {
	Error struct {
		Code    string            `json:"code"`
		Message map[string]string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code string, err error) {
	var body apiError
	body.Error.Code = code
	body.Error.Message = map[string]string{string(i18n.EN): errorIn(i18n.EN, err), string(i18n.ZH): errorIn(i18n.ZH, err)}
	writeJSON(w, status, body)
}

// errorIn renders err in lang: the outermost i18n message in err's chain is
// rendered in that language, errors among its arguments too, and an error
// with none is shown as it is.
func errorIn(lang i18n.Lang, err error) string {
	var ie *i18n.Error
	if !errors.As(err, &ie) {
		return err.Error()
	}
	args := make([]any, len(ie.Args))
	for i, a := range ie.Args {
		if e, ok := a.(error); ok {
			a = errorIn(lang, e)
		}
		args[i] = a
	}
	return i18n.In(lang, ie.Key, args...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	// The status line is already sent; a failed write means the client left.
	_ = json.NewEncoder(w).Encode(v)
}
