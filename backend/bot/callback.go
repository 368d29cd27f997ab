package bot

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// readBody reads a callback body of at most limit bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: read body: %v", ErrMalformed, err)
	}
	return body, nil
}

// statusOf is the HTTP status that refuses a callback for err.
func statusOf(err error) int {
	switch {
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrSignature), errors.Is(err, ErrStale), errors.Is(err, ErrReceiver):
		return http.StatusForbidden
	case errors.Is(err, ErrReplay):
		return http.StatusConflict
	case errors.Is(err, ErrMalformed):
		return http.StatusBadRequest
	case errors.Is(err, ErrClosed):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// refuse answers a callback that failed its checks, and logs why. The
// errors of this package never hold a secret, so err may be logged whole.
func (b *Bot) refuse(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	b.log.Warn("callback refused", "status", status, "remote", r.RemoteAddr, "err", err)
	http.Error(w, http.StatusText(status), status)
}

// need returns the query parameters names, or ErrMalformed naming the first
// one missing.
func need(r *http.Request, names ...string) ([]string, error) {
	q := r.URL.Query()
	vals := make([]string, len(names))
	for i, n := range names {
		vals[i] = q.Get(n)
		if vals[i] == "" {
			return nil, fmt.Errorf("%w: no %s parameter", ErrMalformed, n)
		}
	}
	return vals, nil
}

// verifyEcho answers WeCom's URL verification: the decrypted echostr.
func verifyEcho(c *Crypter, g *replayGuard, r *http.Request) ([]byte, error) {
	v, err := need(r, "msg_signature", "timestamp", "nonce", "echostr")
	if err != nil {
		return nil, err
	}
	if err := c.Verify(v[0], v[1], v[2], v[3]); err != nil {
		return nil, err
	}
	if err := g.fresh(v[1]); err != nil {
		return nil, err
	}
	return c.Decrypt(v[3])
}

// openSigned verifies a POSTed ciphertext against the query's signature,
// checks its timestamp and nonce, and decrypts it.
func openSigned(c *Crypter, g *replayGuard, r *http.Request, encrypted string) ([]byte, error) {
	v, err := need(r, "msg_signature", "timestamp", "nonce")
	if err != nil {
		return nil, err
	}
	if err := c.Verify(v[0], v[1], v[2], encrypted); err != nil {
		return nil, err
	}
	if err := g.check(v[1], v[2]); err != nil {
		return nil, err
	}
	return c.Decrypt(encrypted)
}
