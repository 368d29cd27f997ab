package bot

import (
	"errors"
	"net/http"

	"hermes/backend/callback"
)

// statusOf is the HTTP status that refuses a callback for err.
func statusOf(err error) int {
	switch {
	case errors.Is(err, callback.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, callback.ErrSignature), errors.Is(err, callback.ErrStale), errors.Is(err, callback.ErrReceiver):
		return http.StatusForbidden
	case errors.Is(err, callback.ErrReplay):
		return http.StatusConflict
	case errors.Is(err, callback.ErrMalformed):
		return http.StatusBadRequest
	case errors.Is(err, ErrClosed):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// refuse answers a callback that failed its checks, and logs why. The
// errors of the platforms never hold a secret, so err may be logged whole.
func (b *Bot) refuse(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	b.log.Warn("callback refused", "status", status, "remote", r.RemoteAddr, "err", err)
	http.Error(w, http.StatusText(status), status)
}
