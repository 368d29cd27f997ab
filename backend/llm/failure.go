package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"hermes/backend/i18n"
)

// maxRetryAfter is the longest Retry-After a run waits for; a server asking
// for more gets ErrRateLimited at once rather than a run that seems hung.
const maxRetryAfter = 2 * time.Minute

// maxDetail bounds how much of a server's message reaches an error or event.
const maxDetail = 300

// errAttemptTimeout is the cancel cause of an attempt that saw no data for
// Config.Timeout.
var errAttemptTimeout = errors.New("attempt timed out")

// errNoChoices and errEmptyStream mark answers a working endpoint never
// sends; a base URL that points at a web page instead of the API gives them.
var (
	errNoChoices   = errors.New("the answer holds no choices")
	errEmptyStream = errors.New("the answer holds no stream data")
)

// failure is one failed attempt, classified. detail is already redacted.
type failure struct {
	kind       error // one of the ErrX sentinels
	status     int   // the HTTP status, when the server answered with one
	transient  bool
	detail     string
	retryAfter time.Duration
	hasRetry   bool // the server sent a usable Retry-After
}

// classify turns the error of one attempt into a failure. attemptCtx is the
// attempt's own context, whose cause tells a timeout from other failures.
func (c *Client) classify(attemptCtx context.Context, info *attemptInfo, err error) failure {
	if errors.Is(context.Cause(attemptCtx), errAttemptTimeout) {
		detail := fmt.Sprintf("no answer within %s", c.cfg.Timeout)
		if info.emptyChunks {
			detail += "; the server sent only empty chunks"
		}
		return failure{kind: ErrUnreachable, transient: true, detail: detail}
	}
	if errors.Is(err, errReplyTooLong) {
		return failure{kind: ErrReplyTooLong, detail: err.Error()}
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode > 0:
		return c.statusFailure(apiErr.HTTPStatusCode, apiErr.Message, info)
	case errors.As(err, &apiErr):
		// An error object sent inside an open stream: the server broke mid-answer.
		return failure{kind: ErrServer, transient: true, detail: c.redact("error in stream: " + i18n.Clause(apiErr.Message))}
	case errors.As(err, &reqErr):
		return c.statusFailure(reqErr.HTTPStatusCode, string(reqErr.Body), info)
	case errors.Is(err, errNoChoices), errors.Is(err, errEmptyStream):
		return failure{kind: ErrServer, detail: err.Error()}
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return failure{kind: ErrServer, detail: c.redact("the answer is not the API's JSON: " + err.Error())}
	}
	return c.networkFailure(err)
}

func (c *Client) statusFailure(status int, message string, info *attemptInfo) failure {
	// The detail is set within the messages' sentences, in parentheses.
	f := failure{status: status, detail: c.redact(fmt.Sprintf("HTTP %d: %s", status, i18n.Clause(message)))}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		f.kind = ErrUnauthorized
	case status == http.StatusNotFound:
		f.kind = ErrModelNotFound
	case status == http.StatusTooManyRequests:
		f.kind, f.transient = ErrRateLimited, true
		f.retryAfter, f.hasRetry = parseRetryAfter(info.retryAfter, time.Now())
	case status == http.StatusRequestTimeout || status >= 500:
		f.kind, f.transient = ErrServer, true
		f.retryAfter, f.hasRetry = parseRetryAfter(info.retryAfter, time.Now())
	default:
		f.kind = ErrBadRequest
	}
	return f
}

// networkFailure classifies transport errors. Everything that may clear up by
// itself is transient; a name that does not resolve is not.
func (c *Client) networkFailure(err error) failure {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return failure{kind: ErrUnreachable, detail: c.redact("no such host " + dnsErr.Name)}
	}
	var detail string
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		detail = "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		detail = "connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		detail = "connection closed before the answer was complete"
	case errors.As(err, &netErr) && netErr.Timeout():
		detail = "timed out"
	default:
		detail = err.Error()
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			detail = urlErr.Err.Error()
		}
	}
	return failure{kind: ErrUnreachable, transient: true, detail: c.redact(detail)}
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// redact removes the API key and the base URL's secrets from text that may
// reach a person, and bounds its length: servers sometimes echo the key
// they refused, or the URL they were asked for.
func (c *Client) redact(s string) string {
	for _, secret := range c.secrets {
		s = strings.ReplaceAll(s, secret, "[redacted]")
	}
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxDetail {
		cut := maxDetail
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// minQuerySecret is the shortest query value cut out of free text: shorter
// ones ("1", "true") are no secret, and cutting them would garble the text.
const minQuerySecret = 6

// RedactURL is a base URL as it may be shown: its password and the value of
// every query parameter are masked, since gateways take keys there
// (?api-key=…). A URL that does not parse is shown up to its query.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			raw = raw[:i] + "?xxxxx"
		}
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			scheme, _, _ := strings.Cut(raw, "://")
			raw = scheme + "://xxxxx@" + raw[at+1:]
		}
		return raw
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			if k, v, ok := strings.Cut(p, "="); ok && v != "" {
				params[i] = k + "=xxxxx"
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	u.Fragment, u.RawFragment = "", ""
	return u.Redacted()
}

// urlSecrets are the parts of a base URL that may hold a key: its password
// and its query values, as written and unescaped.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok && p != "" {
		out = append(out, p)
	}
	for _, param := range strings.Split(u.RawQuery, "&") {
		_, v, _ := strings.Cut(param, "=")
		if len(v) < minQuerySecret {
			continue
		}
		out = append(out, v)
		if plain, err := url.QueryUnescape(v); err == nil && plain != v {
			out = append(out, plain)
		}
	}
	return out
}
