package remote

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// maxOwned bounds an answer Owned reads: an eval's results of many runs.
const maxOwned = 64 << 20

// Owned sends a request of the local API to the owner as it came (method,
// path with its query, the JSON body) and returns its answer's status and
// body: for what the owner keeps in its hermes.db (labels, evals, a run's
// test case), which an attached process cannot open. An answer that is not
// 2xx is the owner's *Error.
func (c *Client) Owned(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxOwned))
	if err != nil {
		return 0, nil, c.unreachable(fmt.Errorf("%s %s: %w", method, path, err))
	}
	return res.StatusCode, b, nil
}
