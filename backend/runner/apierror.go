package runner

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/memory"
	"hermes/backend/runlog"
)

// APIError is how the local API shows an error, over HTTP and in the
// window alike: a code for programs, the message in both languages for
// people (the UI shows the one it is set to), and the HTTP status.
type APIError struct {
	Status  int               `json:"-"`
	Code    string            `json:"code"`
	Message map[string]string `json:"message"`
}

// RunRef names the run a request started or resumed.
type RunRef struct {
	RunID string `json:"run_id"`
}

// ModelCheck is the answer to a model check. A failed check is an answer,
// not a failed request: Error says what to fix.
type ModelCheck struct {
	OK    bool      `json:"ok"`
	Error *APIError `json:"error,omitempty"`
}

// CheckResult is the answer for the error of Manager.CheckModel.
func CheckResult(err error) ModelCheck {
	if err != nil {
		e := Explain(err)
		return ModelCheck{Error: &e}
	}
	return ModelCheck{OK: true}
}

// errorCodes gives the status and code of the errors the API knows; the
// first that the error wraps wins.
var errorCodes = []struct {
	err    error
	status int
	code   string
}{
	{runlog.ErrRunNotFound, http.StatusNotFound, "run_not_found"},
	{runlog.ErrArtifactNotFound, http.StatusNotFound, "artifact_not_found"},
	{runlog.ErrBadCursor, http.StatusBadRequest, "bad_cursor"},
	{memory.ErrNoMemory, http.StatusNotFound, "memory_not_found"},
	{ErrNoCheckpoint, http.StatusNotFound, "no_checkpoint"},
	{ErrNoTask, http.StatusBadRequest, "no_task"},
	{ErrBadWorkspace, http.StatusBadRequest, "bad_workspace"},
	{ErrBadControl, http.StatusBadRequest, "bad_control"},
	{ErrBadDecision, http.StatusBadRequest, "bad_decision"},
	{ErrBadIteration, http.StatusBadRequest, "bad_iteration"},
	{ErrBadTitle, http.StatusBadRequest, "bad_title"},
	{ErrEndpointSecret, http.StatusBadRequest, "endpoint_secret"},
	{runlog.ErrBadArtifactRef, http.StatusBadRequest, "bad_artifact_ref"},
	{runlog.ErrBadRange, http.StatusBadRequest, "bad_range"},
	{ErrNotLive, http.StatusConflict, "not_live"},
	{ErrLive, http.StatusConflict, "live"},
	{ErrFinished, http.StatusConflict, "finished"},
	{ErrSample, http.StatusConflict, "sample"},
	{ErrNoApproval, http.StatusConflict, "no_approval"},
	{memory.ErrLocked, http.StatusConflict, "store_locked"},
	{memory.ErrDamaged, http.StatusInternalServerError, "store_damaged"},
	{ErrClosed, http.StatusServiceUnavailable, "shutting_down"},
	// The model check: the settings are wrong, or the endpoint failed.
	{llm.ErrMissingKey, http.StatusBadRequest, "model_key_missing"},
	{llm.ErrUnauthorized, http.StatusBadRequest, "model_key_refused"},
	{llm.ErrModelNotFound, http.StatusBadRequest, "model_not_found"},
	{llm.ErrBadRequest, http.StatusBadRequest, "model_bad_request"},
	{llm.ErrUnreachable, http.StatusBadGateway, "model_unreachable"},
	{llm.ErrRateLimited, http.StatusBadGateway, "model_rate_limited"},
	{llm.ErrServer, http.StatusBadGateway, "model_failed"},
	{config.ErrSyntax, http.StatusInternalServerError, "config_error"},
	{config.ErrUnknownKey, http.StatusInternalServerError, "config_error"},
	{config.ErrWrongType, http.StatusInternalServerError, "config_error"},
	{config.ErrEscapedPath, http.StatusInternalServerError, "config_error"},
	{config.ErrInvalid, http.StatusInternalServerError, "config_error"},
	{runlog.ErrCorruptLog, http.StatusInternalServerError, "corrupt_log"},
}

// Explain turns any error into what the API shows of it. An error the
// table does not know is a 500 "internal".
func Explain(err error) APIError {
	// An error another Hermes process answered with (backend/remote) is
	// shown as that process showed it.
	var answered APIError
	if errors.As(err, &answered) {
		return answered
	}
	e := APIError{Status: http.StatusInternalServerError, Code: "internal"}
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			e.Status, e.Code = c.status, c.code
			break
		}
	}
	return NewAPIError(e.Status, e.Code, err)
}

// NewAPIError shows err with the given status and code.
func NewAPIError(status int, code string, err error) APIError {
	return APIError{Status: status, Code: code, Message: map[string]string{
		string(i18n.EN): MessageIn(i18n.EN, err), string(i18n.ZH): MessageIn(i18n.ZH, err),
	}}
}

// JSON is the error's body: {"error": {"code", "message"}}.
func (e APIError) JSON() []byte {
	b, _ := json.Marshal(struct {
		Error APIError `json:"error"`
	}{e}) // strings only: it always encodes
	return b
}

func (e APIError) Error() string { return string(e.JSON()) }

// MessageIn renders err for a person in lang: the outermost i18n message in
// its chain, with errors among its arguments rendered too, each error of a
// joined list in turn, and an error with no message as it is.
func MessageIn(lang i18n.Lang, err error) string {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		parts := make([]string, 0, len(joined.Unwrap()))
		for _, e := range joined.Unwrap() {
			parts = append(parts, MessageIn(lang, e))
		}
		return strings.Join(parts, "; ")
	}
	var ie *i18n.Error
	if !errors.As(err, &ie) {
		return err.Error()
	}
	args := make([]any, len(ie.Args))
	for i, a := range ie.Args {
		if e, ok := a.(error); ok {
			a = MessageIn(lang, e)
		}
		args[i] = a
	}
	return i18n.In(lang, ie.Key, args...)
}
