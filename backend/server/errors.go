package server

import "net/http"

// statuses gives the HTTP status of each error code the API answers with:
// the runner's (runner.Explain), which name what went wrong, and the
// server's own, which name what was wrong with the request. The codes are
// the domain's; the statuses belong to the transport. A code not listed is
// a 500.
var statuses = map[string]int{
	"run_not_found":      http.StatusNotFound,
	"artifact_not_found": http.StatusNotFound,
	"bad_cursor":         http.StatusBadRequest,
	"memory_not_found":   http.StatusNotFound,
	"no_checkpoint":      http.StatusNotFound,
	"no_task":            http.StatusBadRequest,
	"bad_workspace":      http.StatusBadRequest,
	"bad_sandbox":        http.StatusBadRequest,
	"bad_memory":         http.StatusBadRequest,
	"bad_control":        http.StatusBadRequest,
	"bad_decision":       http.StatusBadRequest,
	"bad_iteration":      http.StatusBadRequest,
	"bad_title":          http.StatusBadRequest,
	"endpoint_secret":    http.StatusBadRequest,
	"bad_artifact_ref":   http.StatusBadRequest,
	"bad_range":          http.StatusBadRequest,
	"not_live":           http.StatusConflict,
	"live":               http.StatusConflict,
	"finished":           http.StatusConflict,
	"sample":             http.StatusConflict,
	"no_approval":        http.StatusConflict,
	"store_locked":       http.StatusConflict,
	"store_damaged":      http.StatusInternalServerError,
	"shutting_down":      http.StatusServiceUnavailable,
	"model_key_missing":  http.StatusBadRequest,
	"model_key_refused":  http.StatusBadRequest,
	"model_not_found":    http.StatusBadRequest,
	"model_bad_request":  http.StatusBadRequest,
	"model_unreachable":  http.StatusBadGateway,
	"model_rate_limited": http.StatusBadGateway,
	"model_failed":       http.StatusBadGateway,
	"config_error":       http.StatusInternalServerError,
	"bad_vault":          http.StatusBadRequest,
	"corrupt_log":        http.StatusInternalServerError,
	// Labels and evals (backend/eval), kept in the owner's hermes.db.
	"eval_not_found": http.StatusNotFound,
	"bad_label":      http.StatusBadRequest,
	"not_owner":      http.StatusNotImplemented,
	"bad_suite_path": http.StatusBadRequest,
	"bad_case":       http.StatusBadRequest,
	// A vault edit's undo and a note of the vault (backend/vault).
	"undo_refused":   http.StatusConflict,
	"note_not_found": http.StatusNotFound,
	"no_vault":       http.StatusNotFound,
	// A cluster's replica (backend/cluster).
	"replica_gone":        http.StatusBadGateway,
	"cluster_unavailable": http.StatusBadGateway,
	// The server's own.
	"no_endpoint":  http.StatusNotFound,
	"no_stream":    http.StatusNotFound,
	"bad_request":  http.StatusBadRequest,
	"unauthorized": http.StatusUnauthorized,
	"cross_site":   http.StatusForbidden,
	"not_json":     http.StatusForbidden,
	"wrong_host":   http.StatusMisdirectedRequest,
}

// statusOf is the HTTP status of an error with code.
func statusOf(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}
