package callback

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ReadBody reads a callback body of at most limit bytes.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
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

// Query returns the query parameters names, or ErrMalformed naming the
// first one missing.
func Query(r *http.Request, names ...string) ([]string, error) {
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
