package feishu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"hermes/backend/chatapi"
)

// Feishu open API codes the client acts on.
const (
	codeTokenInvalid  = 99991663 // tenant access token not valid
	codeTokenBad      = 99991668 // access token not valid
	codeTokenExpired  = 99991677 // access token expired
	codeFreqLimit     = 99991400 // the app called too often
	codeChatFreqLimit = 230020   // too many messages to one chat
	codeWithdrawn     = 230011   // the message replied to was withdrawn
)

// APIError is an error answer of the Feishu open API. It never holds the
// access token or the app secret.
type APIError struct {
	Op      string // such as "im/v1/messages/reply"
	Code    int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("Feishu API %s: code %d: %s", e.Op, e.Code, e.Message)
}

func (e *APIError) Unwrap() error { return ErrAPI }

// APIOptions configure an API client.
type APIOptions struct {
	Base      string // https://open.feishu.cn, or Lark's https://open.larksuite.com
	AppID     string
	AppSecret string
	// Rate is how many calls may start in any one second (the app's QPS).
	Rate int
	// Token and RateLimit, when set, are shared with the bot's other
	// replicas (backend/cluster): one replica fetches the tenant token and
	// the others read it, and Rate holds across them all.
	Token     chatapi.SharedToken
	RateLimit chatapi.Limit
	HTTP      *http.Client
	// Backoff is the wait before retry n (1, 2, …) of a call Feishu said
	// was too frequent, unless it said how long; nil means
	// chatapi.Backoff.
	Backoff func(n int) time.Duration
	Now     func() time.Time
}

// API is a client of the Feishu open API for one self-built app: the
// tenant access token cached until shortly before it expires and fetched
// once however many callers need it, calls paced to the app's rate and
// retried with backoff when Feishu says they came too fast.
type API struct {
	o     APIOptions
	pace  *chatapi.Pacer
	token *chatapi.Token

	mu    sync.Mutex
	botID string // the bot's open_id, once Check has learnt it
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
	return &API{o: o, pace: chatapi.NewPacer(o.Rate), token: chatapi.NewToken(o.Now)}
}

// apiStatus is the code and msg every Feishu answer carries.
type apiStatus struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

func (s *apiStatus) result() *apiStatus { return s }

// answer is what every decoded answer is: one that embeds apiStatus.
type answer interface{ result() *apiStatus }

// tenantToken returns the cached token, or fetches one; callers that
// arrive during a fetch wait for it rather than fetch another.
func (a *API) tenantToken(ctx context.Context) (string, error) {
	return a.token.Get(ctx, func(ctx context.Context) (string, time.Time, error) {
		if a.o.Token != nil {
			return a.o.Token.Token(ctx, a.requestToken)
		}
		return a.requestToken(ctx)
	})
}

// requestToken asks Feishu for a tenant token, and says when to renew it.
func (a *API) requestToken(ctx context.Context) (string, time.Time, error) {
	var resp struct {
		apiStatus
		Token  string `json:"tenant_access_token"`
		Expire int    `json:"expire"`
	}
	body := map[string]string{"app_id": a.o.AppID, "app_secret": a.o.AppSecret}
	if err := a.retry(ctx, "auth/v3/tenant_access_token", "/open-apis/auth/v3/tenant_access_token/internal", "", body, &resp); err != nil {
		return "", time.Time{}, err
	}
	// Feishu hands out a new token once less than half an hour is left.
	return resp.Token, chatapi.RenewAt(a.o.Now(), time.Duration(resp.Expire)*time.Second), nil
}

// dropToken forgets tok after Feishu refused it, here and, unless another
// replica has replaced it already, for the replicas.
func (a *API) dropToken(tok string) {
	a.token.Drop(tok)
	if a.o.Token != nil {
		a.o.Token.Drop(tok)
	}
}

func tokenRefused(code int) bool {
	return code == codeTokenInvalid || code == codeTokenBad || code == codeTokenExpired
}

// call posts body (nil: GETs) to a path with the tenant access token and
// decodes the answer into out; a refused token is fetched again and the
// call retried once.
func (a *API) call(ctx context.Context, op, path string, body any, out answer) error {
	for refreshed := false; ; refreshed = true {
		// The message's commit waits for its own call (chatapi.WithCommit).
		tok, err := a.tenantToken(chatapi.WithoutCommit(ctx))
		if err != nil {
			return err
		}
		err = a.retry(ctx, op, path, tok, body, out)
		var apiErr *APIError
		if errors.As(err, &apiErr) && tokenRefused(apiErr.Code) && !refreshed {
			a.dropToken(tok)
			continue
		}
		return err
	}
}

// retry runs one call until Feishu answers it without a rate limit,
// pacing every try and backing off between them.
func (a *API) retry(ctx context.Context, op, path, tok string, body any, out answer) error {
	return chatapi.Retry(ctx, a.o.Backoff, func() chatapi.Try {
		if err := a.pace.Wait(ctx); err != nil {
			return chatapi.Try{Err: err}
		}
		done := func() {}
		if a.o.RateLimit != nil {
			var err error
			if done, err = a.o.RateLimit.Acquire(ctx); err != nil {
				return chatapi.Try{Err: err}
			}
		}
		// The rate limit has given the call its place: what it sends is
		// committed now, or not sent.
		if err := chatapi.Commit(ctx); err != nil {
			done()
			return chatapi.Try{Err: err}
		}
		*out.result() = apiStatus{}
		limited, wait, err := a.do(ctx, path, tok, body, out)
		done()
		st := out.result()
		limited = limited || st.Code == codeFreqLimit || st.Code == codeChatFreqLimit
		r := chatapi.Try{Again: err != nil || limited, Wait: wait}
		switch {
		case err != nil:
			r.Err = fmt.Errorf("Feishu API %s: %w", op, err) //nolint:staticcheck // Feishu is a name
		case st.Code != 0 || limited: // a 429 has no code of its own
			r.Err = &APIError{Op: op, Code: st.Code, Message: st.Msg}
		}
		if limited {
			r.Hold = a.pace.Hold // every call waits, not only this one
		}
		return r
	})
}

// do sends one request. limited reports a 429, wait how long Feishu said
// to wait (0: not said); a 5xx or a broken connection is an error worth
// another try. Its errors never hold the token.
func (a *API) do(ctx context.Context, path, tok string, body, out any) (limited bool, wait time.Duration, err error) {
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // "<" as itself: the size limits count bytes
		if err := enc.Encode(body); err != nil {
			return false, 0, fmt.Errorf("encode request: %w", err)
		}
		method, rd = http.MethodPost, &b
	}
	req, err := http.NewRequestWithContext(ctx, method, a.o.Base+path, rd)
	if err != nil {
		return false, 0, errors.New("bad Feishu API address; check [bot] api_base")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := chatapi.Do(a.o.HTTP, req)
	if err != nil {
		return false, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // drained for the connection's reuse, if it can be
		if s, err := strconv.Atoi(resp.Header.Get("X-Ogw-Ratelimit-Reset")); err == nil && s > 0 {
			wait = time.Duration(s) * time.Second
		}
		return true, wait, nil
	}
	// Feishu answers its errors with a 4xx and the code in the body.
	decErr := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out)
	if resp.StatusCode >= 500 {
		return false, 0, fmt.Errorf("HTTP status %d", resp.StatusCode)
	}
	if decErr != nil {
		return false, 0, fmt.Errorf("decode answer (HTTP status %d): %w", resp.StatusCode, decErr)
	}
	return false, 0, nil
}

type sendResult struct {
	apiStatus
	Data struct {
		MessageID string `json:"message_id"`
	} `json:"data"`
}

// Reply replies to a message with one message of msgType ("text", "post"
// or "interactive") whose content is the JSON text content.
func (a *API) Reply(ctx context.Context, messageID, msgType, content string) error {
	var res sendResult
	body := map[string]string{"msg_type": msgType, "content": content}
	return a.call(ctx, "im/v1/messages/reply", "/open-apis/im/v1/messages/"+url.PathEscape(messageID)+"/reply", body, &res)
}

// Send sends one message of msgType to a chat: the message API's create,
// with receive_id_type chat_id.
func (a *API) Send(ctx context.Context, chatID, msgType, content string) error {
	var res sendResult
	body := map[string]string{"receive_id": chatID, "msg_type": msgType, "content": content}
	return a.call(ctx, "im/v1/messages", "/open-apis/im/v1/messages?receive_id_type=chat_id", body, &res)
}

// Check fetches a tenant access token, so that a wrong app_id or
// app_secret is reported when the bot starts rather than at its first
// reply, and learns the bot's open_id, which tells a group message that
// @mentions the bot from one that @mentions someone else. Without it (the
// bot capability off, say) any @mention counts.
func (a *API) Check(ctx context.Context) error {
	if _, err := a.tenantToken(ctx); err != nil {
		return err
	}
	var info struct {
		apiStatus
		Bot struct {
			OpenID string `json:"open_id"`
		} `json:"bot"`
	}
	if err := a.call(ctx, "bot/v3/info", "/open-apis/bot/v3/info", nil, &info); err != nil {
		return nil // the token is what Check vouches for
	}
	a.mu.Lock()
	a.botID = info.Bot.OpenID
	a.mu.Unlock()
	return nil
}

// BotOpenID is the bot's open_id once Check has learnt it, else "".
func (a *API) BotOpenID() string {
	if a == nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.botID
}
