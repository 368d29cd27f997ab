// Package llm is the OpenAI-compatible model client of the agent loop: it
// streams answers, assembles tool calls split across chunks, retries transient
// failures, and turns every failure into an error that names the setting to fix
// and never contains the API key.
package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"hermes/backend/i18n"
)

// Config says how to reach the model.
type Config struct {
	BaseURL string // e.g. http://127.0.0.1:8080/v1
	APIKey  string
	Model   string
	// Stream streams answers (the loop does); false makes plain requests.
	Stream bool
	// MaxRetries is how many times a transient failure is retried; 0 (or
	// less) means none. The default lives in the config ([model] max_retries).
	MaxRetries int
	// MaxOutputTokens caps each reply: it is sent with every request as
	// max_tokens (max_completion_tokens to the reasoning models that refuse
	// max_tokens), and a reply that goes past ReplyCap of it anyway is cut
	// off with ErrReplyTooLong. 0 means DefaultMaxOutputTokens.
	MaxOutputTokens int
	// Timeout bounds each attempt's wait for the server: for the response
	// headers, then between two stream chunks that carry text, reasoning or
	// a tool call (so a long answer that keeps streaming is never cut, and
	// one of empty chunks is as silent as no chunk). 0 means 120s.
	Timeout time.Duration
	// Backoff is the wait before retry attempt (1-based) when the server sends
	// no Retry-After; nil means 500ms, 1s, 2s, … with jitter.
	Backoff func(attempt int) time.Duration
	// SendReasoning says which assistant messages carry their reasoning
	// back to the provider: SendReasoningAuto (also ""), SendReasoningAlways
	// or SendReasoningNever.
	SendReasoning string
	// HTTPClient carries the requests; nil means a default client.
	HTTPClient *http.Client
}

// Client asks an OpenAI-compatible endpoint for chat completions. It is safe
// for concurrent use.
type Client struct {
	cfg     Config
	api     *openai.Client
	base    string   // the base URL as it may be shown: no password, no query values
	baseErr string   // why the base URL cannot work, if it cannot
	secrets []string // cut out of every text that may reach a person
}

// New returns a client for cfg, with defaults filled in.
func New(cfg Config) *Client {
	cfg.MaxRetries = max(cfg.MaxRetries, 0)
	if cfg.MaxOutputTokens <= 0 {
		cfg.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 120 * time.Second
	}
	if cfg.Backoff == nil {
		cfg.Backoff = defaultBackoff
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	transport := hc.Transport
	if transport == nil {
		transport = sharedTransport()
	}
	hc.Transport = headerCapture{next: transport}

	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = hc
	c := &Client{cfg: cfg, api: openai.NewClientWithConfig(oc), secrets: urlSecrets(cfg.BaseURL)}
	if cfg.APIKey != "" {
		c.secrets = append(c.secrets, cfg.APIKey)
	}
	// Longer first, so a secret that holds another is cut out whole.
	slices.SortFunc(c.secrets, func(a, b string) int { return len(b) - len(a) })
	c.base = c.redact(RedactURL(cfg.BaseURL))
	u, err := url.Parse(cfg.BaseURL)
	switch {
	case err != nil:
		c.baseErr = "the base URL does not parse"
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		c.baseErr = "the base URL must start with http:// or https:// and name a host"
	}
	return c
}

// sharedTransport carries every client's requests that name no transport
// of their own. Many runs (a bot's users) ask one endpoint at once, so it
// keeps more connections per host for reuse than Go's default of two. It
// is made for the first client, not in the start of every process.
var sharedTransport = sync.OnceValue(func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
})

// defaultBackoff doubles from 500ms and adds up to a quarter of jitter, so
// clients that failed together do not retry together.
func defaultBackoff(attempt int) time.Duration {
	d := 500 * time.Millisecond << min(attempt-1, 6)
	return d + rand.N(d/4)
}

// Chat sends req and returns the model's complete answer, retrying transient
// failures. With Config.Stream, req.OnDelta receives the text as it arrives;
// otherwise it receives the whole text once. After a failed attempt
// req.OnRetry is called before the wait, so a caller can discard partial text.
// The Response carries Attempts and Latency (the whole call, waits included)
// even when an error is returned.
func (c *Client) Chat(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	if c.baseErr != "" {
		return Response{}, i18n.Wrap(ErrUnreachable, "llm.unreachable", c.base, c.baseErr)
	}
	oreq := c.chatRequest(req)
	var resp Response
	attempts, err := c.retry(ctx, oreq.Model, req.OnRetry, func(ctx context.Context, alive func()) error {
		var err error
		if c.cfg.Stream {
			resp, err = c.streamed(ctx, oreq, req, alive)
		} else {
			resp, err = c.plain(ctx, oreq, req)
		}
		return err
	})
	if err != nil {
		resp = Response{}
	}
	resp.Attempts = attempts
	resp.Latency = time.Since(start)
	if !resp.firstAt.IsZero() {
		resp.FirstToken = resp.firstAt.Sub(start)
	}
	return resp, err
}

// retry runs attempt until it succeeds, fails for good, or ctx ends, and
// returns how many attempts it made.
func (c *Client) retry(ctx context.Context, model string, onRetry func(Retry), attempt func(ctx context.Context, alive func()) error) (int, error) {
	for n := 1; ; n++ {
		f, failed := c.once(ctx, attempt)
		if !failed {
			return n, nil
		}
		if ctx.Err() != nil {
			return n, fmt.Errorf("ask the model at %s: %w", c.base, ctx.Err())
		}
		if !f.transient || n > c.cfg.MaxRetries {
			return n, c.userError(f, model, n)
		}
		wait := c.cfg.Backoff(n)
		if f.hasRetry {
			if f.retryAfter > maxRetryAfter {
				f.detail = fmt.Sprintf("%s; the server asks to wait %s", f.detail, f.retryAfter)
				return n, c.userError(f, model, n)
			}
			wait = f.retryAfter
		}
		if onRetry != nil {
			onRetry(Retry{Attempt: n, Wait: wait, Err: f.detail})
		}
		if err := sleep(ctx, wait); err != nil {
			return n, fmt.Errorf("ask the model at %s: %w", c.base, err)
		}
	}
}

// once runs one attempt under its own timeout. alive, called whenever data
// arrives, pushes the timeout back.
func (c *Client) once(ctx context.Context, attempt func(ctx context.Context, alive func()) error) (failure, bool) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	info := &attemptInfo{bodyLimit: c.bodyLimit()}
	actx = context.WithValue(actx, attemptKey{}, info)
	timer := time.AfterFunc(c.cfg.Timeout, func() { cancel(errAttemptTimeout) })
	defer timer.Stop()
	err := attempt(actx, func() { timer.Reset(c.cfg.Timeout) })
	if err == nil {
		return failure{}, false
	}
	return c.classify(actx, info, err), true
}

func (c *Client) userError(f failure, model string, attempts int) error {
	switch f.kind {
	case ErrUnauthorized:
		return i18n.Wrap(ErrUnauthorized, "llm.unauthorized", c.base, f.detail)
	case ErrModelNotFound:
		return i18n.Wrap(ErrModelNotFound, "llm.model_not_found", c.base, model, f.detail)
	case ErrBadRequest:
		if strings.Contains(f.detail, "reasoning") {
			return i18n.Wrap(ErrBadRequest, "llm.bad_request_reasoning", c.base, f.detail, c.sendReasoning())
		}
		return i18n.Wrap(ErrBadRequest, "llm.bad_request", c.base, f.detail)
	case ErrRateLimited:
		return i18n.Wrap(ErrRateLimited, "llm.rate_limited", c.base, f.detail, attempts)
	case ErrServer:
		return i18n.Wrap(ErrServer, "llm.server", c.base, f.detail, attempts)
	case ErrReplyTooLong:
		return i18n.Wrap(ErrReplyTooLong, "llm.reply_too_long", c.base, ReplyCap(c.cfg.MaxOutputTokens), c.cfg.MaxOutputTokens)
	default:
		return i18n.Wrap(ErrUnreachable, "llm.unreachable", c.base, f.detail)
	}
}

// Check verifies, before a run starts, that the endpoint answers and accepts
// the key. A 404 or 405 from GET /models still proves the server is there
// (some servers do not list models), so it passes.
func (c *Client) Check(ctx context.Context) error {
	if c.baseErr != "" {
		return i18n.Wrap(ErrUnreachable, "llm.unreachable", c.base, c.baseErr)
	}
	if c.cfg.APIKey == "" && !c.isLoopback() {
		return i18n.Wrap(ErrMissingKey, "llm.missing_key")
	}
	f, failed := c.once(ctx, func(ctx context.Context, _ func()) error {
		_, err := c.api.ListModels(ctx)
		return err
	})
	if ctx.Err() != nil {
		return fmt.Errorf("check the model at %s: %w", c.base, ctx.Err())
	}
	if !failed || f.status == http.StatusNotFound || f.status == http.StatusMethodNotAllowed {
		return nil
	}
	return c.userError(f, c.cfg.Model, 1)
}

// isLoopback tells whether the endpoint runs on this machine, where servers
// such as Ollama need no key.
func (c *Client) isLoopback() bool {
	u, err := url.Parse(c.cfg.BaseURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// attemptInfo carries what one attempt tells the transport, and what the
// transport saw of its response that go-openai does not pass on.
type attemptInfo struct {
	bodyLimit  int64 // > 0: the response body may hold at most this many bytes
	retryAfter string
	// keepBody asks for a copy of the response body in body, for what a
	// plain answer holds that go-openai does not read.
	keepBody bool
	body     bytes.Buffer
	// emptyChunks says the stream's last chunk carried no text, reasoning
	// or tool call: an attempt that times out then was sent only those.
	emptyChunks bool
}

type attemptKey struct{}

// headerCapture records the Retry-After header of each attempt, which
// go-openai drops from a failed streaming request, and bounds the body that
// go-openai reads, which it would otherwise read whole (an answer, an error
// body, or a single endless stream line).
type headerCapture struct {
	next http.RoundTripper
}

func (h headerCapture) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(req)
	if info, ok := req.Context().Value(attemptKey{}).(*attemptInfo); ok && resp != nil {
		info.retryAfter = resp.Header.Get("Retry-After")
		if info.bodyLimit > 0 {
			resp.Body = &limitedBody{ReadCloser: resp.Body, left: info.bodyLimit}
		}
		if info.keepBody {
			info.body.Reset()
			resp.Body = teeBody{Reader: io.TeeReader(resp.Body, &info.body), Closer: resp.Body}
		}
	}
	return resp, err
}

// teeBody reads through Reader and closes Closer.
type teeBody struct {
	io.Reader
	io.Closer
}

// limitedBody fails with errReplyTooLong once more than its limit is read.
type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errReplyTooLong
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, errReplyTooLong
	}
	return n, err
}
