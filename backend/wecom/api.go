package wecom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"hermes/backend/chatapi"
)

// WeCom API error codes the client acts on.
const (
	codeBusy         = -1    // system busy: try again
	codeInvalidToken = 40014 // access token not valid
	codeTokenExpired = 42001 // access token expired
	codeFreqLimit    = 45009 // API called too often
	codeConcurrency  = 45033 // too many concurrent calls
)

// textLimit is the most bytes one text message may hold; WeCom cuts the
// rest off.
const textLimit = 2048

// APIError is an error answer of the WeCom API. It never holds the access
// token or the secret.
type APIError struct {
	Op      string // the API path, such as "message/send"
	Code    int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("WeCom API %s: errcode %d: %s", e.Op, e.Code, e.Message)
}

func (e *APIError) Unwrap() error { return ErrAPI }

// APIOptions configure an API client.
type APIOptions struct {
	Base    string // such as https://qyapi.weixin.qq.com
	CorpID  string
	Secret  string
	AgentID int
	// Rate is how many calls may start in any one second; UserRate how many
	// messages one user may be sent in any one minute.
	Rate, UserRate int
	Cache          chatapi.UserIDCache
	// Token and UserLimit, when set, are shared with the bot's other
	// replicas (backend/cluster): one replica fetches the token and the
	// others read it, and a user's limit holds whichever replica sends.
	Token     chatapi.SharedToken
	UserLimit chatapi.SharedLimits
	// RateLimit, when set, is the company's per-second limit shared with
	// the bot's other replicas, in place of Rate counted here alone.
	RateLimit chatapi.Limit
	HTTP      *http.Client
	// Backoff is the wait before retry n (1, 2, …) of a call WeCom said was
	// busy; nil means chatapi.Backoff.
	Backoff func(n int) time.Duration
	Now     func() time.Time
}

// API is a client of the WeCom server API for one self-built application:
// the access token cached until it expires and fetched once however many
// callers need it at once, calls rate-limited and retried with backoff when
// WeCom is busy, user ids converted once and cached.
type API struct {
	o     APIOptions
	rate  chatapi.Limit
	users *chatapi.Limiters
	token *chatapi.Token

	userIDs  chatapi.Flight[string]
	contacts contacts
}

// NewAPI returns a client; nothing is fetched until the first call.
func NewAPI(o APIOptions) *API {
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 15 * time.Second}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Backoff == nil {
		o.Backoff = chatapi.Backoff
	}
	a := &API{o: o, rate: o.RateLimit, users: chatapi.NewLimiters(o.UserRate, time.Minute, o.Now), token: chatapi.NewToken(o.Now)}
	if a.rate == nil {
		a.rate = chatapi.NewLimiter(o.Rate, time.Second, o.Now)
	}
	return a
}

// accessToken returns the cached token, or fetches one: from the
// replicas' shared token when there is one, else from WeCom.
func (a *API) accessToken(ctx context.Context) (string, error) {
	return a.token.Get(ctx, func(ctx context.Context) (string, time.Time, error) {
		if a.o.Token != nil {
			return a.o.Token.Token(ctx, a.requestToken)
		}
		return a.requestToken(ctx)
	})
}

// requestToken asks WeCom for a token, and says when to renew it.
func (a *API) requestToken(ctx context.Context) (string, time.Time, error) {
	var resp struct {
		apiStatus
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	q := url.Values{"corpid": {a.o.CorpID}, "corpsecret": {a.o.Secret}}
	err := a.retry(ctx, "gettoken", func() (apiStatus, error) {
		err := a.do(ctx, http.MethodGet, "/cgi-bin/gettoken?"+q.Encode(), nil, &resp)
		return resp.apiStatus, err
	})
	if err != nil {
		return "", time.Time{}, err
	}
	return resp.AccessToken, chatapi.RenewAt(a.o.Now(), time.Duration(resp.ExpiresIn)*time.Second), nil
}

// dropToken forgets tok after WeCom refused it; a newer token that another
// caller already fetched is kept, so a burst of refusals refreshes once.
func (a *API) dropToken(tok string) {
	a.token.Drop(tok)
	if a.o.Token != nil {
		a.o.Token.Drop(tok)
	}
}

// apiStatus is the errcode and errmsg every WeCom answer carries.
type apiStatus struct {
	ErrCode int    `json:"errcode"`
	ErrMsg  string `json:"errmsg"`
}

// call posts body to a token-authenticated API path and decodes the answer
// into out, which must embed apiStatus and return it from status.
func (a *API) call(ctx context.Context, op, path string, body any, out interface{ status() apiStatus }) error {
	return a.callQuery(ctx, http.MethodPost, op, path, nil, body, out)
}

// callQuery is call with any method and query parameters beside the token.
func (a *API) callQuery(ctx context.Context, method, op, path string, q url.Values, body any, out interface{ status() apiStatus }) error {
	refreshed := false
	for {
		tok, err := a.accessToken(ctx)
		if err != nil {
			return err
		}
		query := url.Values{"access_token": {tok}}
		for k, v := range q {
			query[k] = v
		}
		err = a.retry(ctx, op, func() (apiStatus, error) {
			// The rate limit has given the call its place: what it sends
			// is committed now, or not sent (chatapi.WithCommit).
			if err := chatapi.Commit(ctx); err != nil {
				return apiStatus{}, &notCommitted{err}
			}
			err := a.do(ctx, method, path+"?"+query.Encode(), body, out)
			return out.status(), err
		})
		var nc *notCommitted
		if errors.As(err, &nc) {
			return nc.err
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) && tokenRefused(apiErr.Code) && !refreshed {
			a.dropToken(tok)
			refreshed = true
			continue
		}
		return err
	}
}

func tokenRefused(code int) bool { return code == codeInvalidToken || code == codeTokenExpired }

func busy(code int) bool { return code == codeBusy || code == codeFreqLimit || code == codeConcurrency }

// retry runs one call until WeCom answers without being busy, waiting for
// the rate limit before each try and backing off between tries.
func (a *API) retry(ctx context.Context, op string, try func() (apiStatus, error)) error {
	return chatapi.Retry(ctx, a.o.Backoff, func() chatapi.Try {
		done, err := a.rate.Acquire(ctx)
		if err != nil {
			return chatapi.Try{Err: err}
		}
		st, err := try()
		done()
		var nc *notCommitted
		if errors.As(err, &nc) {
			return chatapi.Try{Err: err}
		}
		r := chatapi.Try{Again: err != nil || busy(st.ErrCode)}
		switch {
		case err != nil:
			r.Err = fmt.Errorf("WeCom API %s: %w", op, err)
		case st.ErrCode != 0:
			r.Err = &APIError{Op: op, Code: st.ErrCode, Message: st.ErrMsg}
		}
		return r
	})
}

// notCommitted carries the error of a send's commit, which is not tried
// again: the message is not sent.
type notCommitted struct{ err error }

func (e *notCommitted) Error() string { return e.err.Error() }

// errHTTPStatus marks an answer that was not a WeCom JSON answer.
var errHTTPStatus = errors.New("unexpected HTTP status")

// do sends one request. Its errors never hold the URL, which carries the
// access token or the secret.
func (a *API) do(ctx context.Context, method, pathAndQuery string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.o.Base+pathAndQuery, rd)
	if err != nil {
		return errors.New("bad WeCom API address; check [bot] api_base")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := chatapi.Do(a.o.HTTP, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // drained for the connection's reuse, if it can be
		return fmt.Errorf("%w %d", errHTTPStatus, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	return nil
}

type sendResult struct {
	apiStatus
	InvalidUser string `json:"invaliduser"`
}

func (r *sendResult) status() apiStatus { return r.apiStatus }

// SendText sends text to one user as the application, split into messages
// of at most WeCom's size, each waiting for the user's rate limit.
func (a *API) SendText(ctx context.Context, userID, text string) error {
	for _, part := range chatapi.Split(text, textLimit) {
		acquire := a.users.Acquire
		if a.o.UserLimit != nil {
			acquire = func(ctx context.Context, key string) (func(), error) {
				return a.o.UserLimit.Acquire(ctx, key, a.o.UserRate, time.Minute)
			}
		}
		done, err := acquire(ctx, userID)
		if err != nil {
			return err
		}
		body := map[string]any{
			"touser": userID, "msgtype": "text", "agentid": a.o.AgentID,
			"text": map[string]string{"content": part},
		}
		var res sendResult
		err = a.call(ctx, "message/send", "/cgi-bin/message/send", body, &res)
		done()
		if err != nil {
			return err
		}
		if res.InvalidUser != "" {
			return &APIError{Op: "message/send", Code: 0, Message: "user " + res.InvalidUser + " is not in the application's visible range"}
		}
	}
	return nil
}

type convertResult struct {
	apiStatus
	UserIDs []struct {
		OpenUserID string `json:"open_userid"`
		UserID     string `json:"userid"`
	} `json:"userid_list"`
	Invalid []string `json:"invalid_open_userid_list"`
}

func (r *convertResult) status() apiStatus { return r.apiStatus }

// UserID converts the id a callback names the sender by into the user id
// that message/send takes. An id WeCom does not know as an open user id is
// already a user id. Either answer is cached, so each id is asked once, and
// once for all who ask at the same moment.
func (a *API) UserID(ctx context.Context, callbackID string) (string, error) {
	key := a.o.CorpID + "/" + callbackID
	if a.o.Cache != nil {
		if id, ok, err := a.o.Cache.CachedUserID(key); err != nil || ok {
			return id, err
		}
	}
	return a.userIDs.Do(ctx, key, func(ctx context.Context) (string, error) {
		var res convertResult
		body := map[string]any{"open_userid_list": []string{callbackID}, "source_agentid": a.o.AgentID}
		if err := a.call(ctx, "batch/openuserid_to_userid", "/cgi-bin/batch/openuserid_to_userid", body, &res); err != nil {
			return "", err
		}
		id := callbackID
		for _, u := range res.UserIDs {
			if u.OpenUserID == callbackID && u.UserID != "" {
				id = u.UserID
			}
		}
		if a.o.Cache != nil {
			if err := a.o.Cache.CacheUserID(key, id); err != nil {
				return "", err
			}
		}
		return id, nil
	})
}

// Check fetches an access token, so that a wrong corp_id or secret is
// reported when the bot starts rather than at its first reply.
func (a *API) Check(ctx context.Context) error {
	_, err := a.accessToken(ctx)
	return err
}
