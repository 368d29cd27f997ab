package server

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/longterm"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// TestStatusOf: every error the runner explains is answered with the
// status the API has always given it, whatever wraps it.
func TestStatusOf(t *testing.T) {
	tests := []struct {
		err    error
		status int
		code   string
	}{
		{runlog.ErrRunNotFound, http.StatusNotFound, "run_not_found"},
		{runlog.ErrArtifactNotFound, http.StatusNotFound, "artifact_not_found"},
		{runlog.ErrBadCursor, http.StatusBadRequest, "bad_cursor"},
		{longterm.ErrNoMemory, http.StatusNotFound, "memory_not_found"},
		{runner.ErrNoCheckpoint, http.StatusNotFound, "no_checkpoint"},
		{runner.ErrNoTask, http.StatusBadRequest, "no_task"},
		{runner.ErrBadWorkspace, http.StatusBadRequest, "bad_workspace"},
		{runner.ErrBadControl, http.StatusBadRequest, "bad_control"},
		{runner.ErrBadDecision, http.StatusBadRequest, "bad_decision"},
		{runner.ErrBadIteration, http.StatusBadRequest, "bad_iteration"},
		{runner.ErrBadTitle, http.StatusBadRequest, "bad_title"},
		{runner.ErrEndpointSecret, http.StatusBadRequest, "endpoint_secret"},
		{runlog.ErrBadArtifactRef, http.StatusBadRequest, "bad_artifact_ref"},
		{runlog.ErrBadRange, http.StatusBadRequest, "bad_range"},
		{runner.ErrNotLive, http.StatusConflict, "not_live"},
		{runner.ErrLive, http.StatusConflict, "live"},
		{runner.ErrFinished, http.StatusConflict, "finished"},
		{runner.ErrSample, http.StatusConflict, "sample"},
		{runner.ErrNoApproval, http.StatusConflict, "no_approval"},
		{store.ErrLocked, http.StatusConflict, "store_locked"},
		{store.ErrDamaged, http.StatusInternalServerError, "store_damaged"},
		{runner.ErrClosed, http.StatusServiceUnavailable, "shutting_down"},
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
	for _, tt := range tests {
		e := runner.Explain(fmt.Errorf("wrapped: %w", tt.err))
		if e.Code != tt.code || statusOf(e.Code) != tt.status {
			t.Errorf("%v = %d %s, want %d %s", tt.err, statusOf(e.Code), e.Code, tt.status, tt.code)
		}
	}
	joined := runner.Explain(errors.Join(
		i18n.Wrap(config.ErrInvalid, "config.invalid.min", "[agent] max_iterations", 0, 1),
		i18n.Wrap(config.ErrInvalid, "config.invalid.model"),
	))
	if statusOf(joined.Code) != http.StatusInternalServerError {
		t.Errorf("config mistakes joined = %d", statusOf(joined.Code))
	}
	if s := statusOf(runner.Explain(errors.New("disk on fire")).Code); s != http.StatusInternalServerError {
		t.Errorf("an unknown error = %d, want 500", s)
	}
}
