package runner

import (
	"errors"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/longterm"
	"hermes/backend/runlog"
	"hermes/backend/store"
	"hermes/backend/vault"
)

// CheckResult is the answer for the error of Manager.CheckModel.
func CheckResult(err error) ModelCheck {
	if err != nil {
		e := Explain(err)
		return ModelCheck{Error: &e}
	}
	return ModelCheck{OK: true}
}

// errorCodes gives the code of the errors the API knows; the first that
// the error wraps wins.
var errorCodes = []struct {
	err  error
	code string
}{
	{runlog.ErrRunNotFound, "run_not_found"},
	{runlog.ErrArtifactNotFound, "artifact_not_found"},
	{runlog.ErrBadCursor, "bad_cursor"},
	{longterm.ErrNoMemory, "memory_not_found"},
	{ErrNoCheckpoint, "no_checkpoint"},
	{ErrNoTask, "no_task"},
	{ErrBadWorkspace, "bad_workspace"},
	{ErrInvalidSandbox, "bad_sandbox"},
	{ErrInvalidMemory, "bad_memory"},
	{ErrBadControl, "bad_control"},
	{ErrBadDecision, "bad_decision"},
	{ErrBadIteration, "bad_iteration"},
	{ErrBadTitle, "bad_title"},
	{ErrEndpointSecret, "endpoint_secret"},
	{runlog.ErrBadArtifactRef, "bad_artifact_ref"},
	{runlog.ErrBadRange, "bad_range"},
	{ErrNotLive, "not_live"},
	{ErrLive, "live"},
	{ErrFinished, "finished"},
	{ErrSample, "sample"},
	{ErrNoApproval, "no_approval"},
	{store.ErrLocked, "store_locked"},
	{store.ErrDamaged, "store_damaged"},
	{ErrClosed, "shutting_down"},
	// The model check: the settings are wrong, or the endpoint failed.
	{llm.ErrMissingKey, "model_key_missing"},
	{llm.ErrUnauthorized, "model_key_refused"},
	{llm.ErrModelNotFound, "model_not_found"},
	{llm.ErrBadRequest, "model_bad_request"},
	{llm.ErrUnreachable, "model_unreachable"},
	{llm.ErrRateLimited, "model_rate_limited"},
	{llm.ErrServer, "model_failed"},
	{config.ErrBadVault, "bad_vault"},
	{config.ErrSyntax, "config_error"},
	{config.ErrUnknownKey, "config_error"},
	{config.ErrWrongType, "config_error"},
	{config.ErrEscapedPath, "config_error"},
	{config.ErrInvalid, "config_error"},
	{runlog.ErrCorruptLog, "corrupt_log"},
	// The vault's routes: an undo refused, a note not found, no vault.
	{vault.ErrUndoRefused, "undo_refused"},
	{vault.ErrNoNote, "note_not_found"},
	{ErrNoVault, "no_vault"},
}

// Explain turns any error into what the API shows of it. An error the
// table does not know is "internal".
func Explain(err error) APIError {
	// An error another Hermes process answered with (backend/remote) is
	// shown as that process showed it.
	var answered APIError
	if errors.As(err, &answered) {
		return answered
	}
	code := "internal"
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			code = c.code
			break
		}
	}
	return NewAPIError(code, err)
}

// NewAPIError shows err with the given code.
func NewAPIError(code string, err error) APIError {
	return APIError{Code: code, Message: map[string]string{
		string(i18n.EN): i18n.MessageIn(i18n.EN, err), string(i18n.ZH): i18n.MessageIn(i18n.ZH, err),
	}}
}
