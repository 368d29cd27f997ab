// Package feishutest is a local HTTP server that speaks the part of the
// Feishu open API the bot uses — tenant access tokens and replies to
// messages — with Feishu's codes and a rate limit, and a client that posts
// event callbacks as Feishu does, encrypted and signed when there is an
// Encrypt Key. Like llmtest it is for tests; production code never imports
// it.
package feishutest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"hermes/backend/chatapi/chatapitest"
)

// Feishu's codes, as the server answers them.
const (
	CodeAppSecretInvalid = 10014
	CodeTokenInvalid     = 99991663
	CodeTokenExpired     = 99991677
	CodeFreqLimit        = 99991400
	CodeBadRequest       = 230001
	CodeWithdrawn        = 230011
)

// Reply is one message the bot sent.
type Reply struct {
	To      string // the message_id replied to, or "chat:" and the chat_id sent to
	MsgType string // text, post or interactive
	Content string // the JSON content as sent
}

// Text is the reply's words: a text message's text, a post's lines, or a
// card's title and Markdown. Content that does not read as its type has
// none, which the test's check of the words then shows.
func (r Reply) Text() string {
	switch r.MsgType {
	case "text":
		var c struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal([]byte(r.Content), &c)
		return c.Text
	case "post":
		var c map[string]struct {
			Content [][]struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		_ = json.Unmarshal([]byte(r.Content), &c)
		var lines []string
		for _, row := range c["zh_cn"].Content {
			var line strings.Builder
			for _, el := range row {
				line.WriteString(el.Text)
			}
			lines = append(lines, line.String())
		}
		return strings.Join(lines, "\n")
	case "interactive":
		var c struct {
			Header struct {
				Title struct {
					Content string `json:"content"`
				} `json:"title"`
			} `json:"header"`
			Elements []struct {
				Content string `json:"content"`
			} `json:"elements"`
		}
		_ = json.Unmarshal([]byte(r.Content), &c)
		parts := []string{c.Header.Title.Content}
		for _, e := range c.Elements {
			parts = append(parts, e.Content)
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// Stats counts what the server saw.
type Stats struct {
	Tokens    int // tenant access tokens issued
	Replies   int // replies delivered
	Refused   int // calls answered with an error code
	OverLimit int // calls beyond the rate limit, answered 429
}

// Server is a fake Feishu open API for one app. URL is its base, to be
// given as [bot] api_base.
type Server struct {
	URL string

	appID, secret string
	limit         int // calls allowed in any one second; 0: no limit

	mu       sync.Mutex
	tokens   map[string]bool // token -> still valid
	gone     map[string]bool // message ids withdrawn
	faults   []int           // codes for the next reply calls
	limited  int             // the next calls answered 429
	arrivals chatapitest.Window
	replies  []Reply
	stats    Stats
	changes  chatapitest.Changes // told whenever a reply arrives
}

// NewServer starts a server for appID and secret that allows limit calls
// per second (0: no limit). It is closed when the test ends.
func NewServer(t testing.TB, appID, secret string, limit int) *Server {
	s := &Server{appID: appID, secret: secret, limit: limit, tokens: map[string]bool{}, gone: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /open-apis/auth/v3/tenant_access_token/internal", s.token)
	mux.HandleFunc("POST /open-apis/im/v1/messages/{id}/reply", s.reply)
	mux.HandleFunc("GET /open-apis/bot/v3/info", s.botInfo)
	mux.HandleFunc("POST /open-apis/im/v1/messages", s.create)
	srv := httptest.NewServer(mux)
	s.URL = srv.URL
	t.Cleanup(srv.Close)
	return s
}

// ExpireTokens makes every token issued so far expired.
func (s *Server) ExpireTokens() {
	s.mu.Lock()
	for k := range s.tokens {
		s.tokens[k] = false
	}
	s.mu.Unlock()
}

// Withdraw makes a message withdrawn by its sender: replies to it are
// refused with 230011.
func (s *Server) Withdraw(messageID string) {
	s.mu.Lock()
	s.gone[messageID] = true
	s.mu.Unlock()
}

// FailReplies answers the next reply calls with these codes, one each.
func (s *Server) FailReplies(codes ...int) {
	s.mu.Lock()
	s.faults = append(s.faults, codes...)
	s.mu.Unlock()
}

// Limit answers the next n calls with HTTP 429, as Feishu does past an
// app's rate.
func (s *Server) Limit(n int) {
	s.mu.Lock()
	s.limited += n
	s.mu.Unlock()
}

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Replies returns the replies so far, in order.
func (s *Server) Replies() []Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Reply(nil), s.replies...)
}

// WaitFor blocks until cond, called with the replies so far, returns true,
// or ctx is done. It wakes on each reply, never on a timer.
func (s *Server) WaitFor(ctx context.Context, cond func([]Reply) bool) error {
	if err := s.changes.Wait(ctx, &s.mu, func() bool { return cond(s.replies) }); err != nil {
		return fmt.Errorf("feishutest: waiting for replies: %w", err)
	}
	return nil
}

// overLimit counts a call and reports whether it must be answered 429.
// Call with s.mu held.
func (s *Server) overLimit() bool {
	if n := s.arrivals.Arrive(); s.limited > 0 || (s.limit > 0 && n > s.limit) {
		s.limited = max(s.limited-1, 0)
		s.stats.OverLimit++
		return true
	}
	return false
}

// answer writes a JSON answer; Feishu puts a failing code beside a 4xx.
func (s *Server) answer(w http.ResponseWriter, status, code int, body map[string]any) {
	if body == nil {
		body = map[string]any{}
	}
	body["code"], body["msg"] = code, "success"
	if code != 0 {
		s.stats.Refused++
		body["msg"] = fmt.Sprintf("feishutest error %d", code)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // a client gone has no one to be told
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	var req struct {
		AppID     string `json:"app_id"`
		AppSecret string `json:"app_secret"`
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.overLimit():
		s.limitedAnswer(w)
	case err != nil || req.AppID != s.appID || req.AppSecret != s.secret:
		s.answer(w, http.StatusBadRequest, CodeAppSecretInvalid, nil)
	default:
		s.stats.Tokens++
		tok := fmt.Sprintf("t-feishutest-%d", s.stats.Tokens)
		s.tokens[tok] = true
		s.answer(w, http.StatusOK, 0, map[string]any{"tenant_access_token": tok, "expire": 7200})
	}
}

// BotOpenID is the open_id of the app's bot, as bot/v3/info gives it and
// Events' mentions of the bot carry it.
const BotOpenID = "ou_bot7d2f0c1e9a8b6c5d4e3f2a1b0c9d8e7f"

func (s *Server) botInfo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.overLimit() {
		s.limitedAnswer(w)
		return
	}
	if code := s.authorize(r); code != 0 {
		s.answer(w, http.StatusBadRequest, code, nil)
		return
	}
	s.answer(w, http.StatusOK, 0, map[string]any{"bot": map[string]any{"activate_status": 2, "app_name": "Hermes", "open_id": BotOpenID}})
}

// authorize checks the request's tenant access token; it returns 0 or the
// code to answer. Call with s.mu held.
func (s *Server) authorize(r *http.Request) int {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	valid, known := s.tokens[tok]
	switch {
	case !known:
		return CodeTokenInvalid
	case !valid:
		return CodeTokenExpired
	}
	return 0
}

func (s *Server) limitedAnswer(w http.ResponseWriter) {
	w.Header().Set("X-Ogw-Ratelimit-Limit", fmt.Sprint(s.limit))
	s.answer(w, http.StatusTooManyRequests, CodeFreqLimit, nil)
}

func (s *Server) reply(w http.ResponseWriter, r *http.Request) {
	s.deliver(w, r, r.PathValue("id"))
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	s.deliver(w, r, "chat:")
}

// deliver takes a message to send: a reply to the message id to, or a new
// message in a chat when to is "chat:".
func (s *Server) deliver(w http.ResponseWriter, r *http.Request, to string) {
	var req struct {
		ReceiveID string `json:"receive_id"`
		MsgType   string `json:"msg_type"`
		Content   string `json:"content"`
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.overLimit() {
		s.limitedAnswer(w)
		return
	}
	if code := s.authorize(r); code != 0 {
		s.answer(w, http.StatusBadRequest, code, nil)
		return
	}
	if to == "chat:" {
		if r.URL.Query().Get("receive_id_type") != "chat_id" || req.ReceiveID == "" {
			s.answer(w, http.StatusBadRequest, CodeBadRequest, nil)
			return
		}
		to += req.ReceiveID
	}
	if s.gone[to] {
		s.answer(w, http.StatusBadRequest, CodeWithdrawn, nil)
		return
	}
	if len(s.faults) > 0 {
		code := s.faults[0]
		s.faults = s.faults[1:]
		s.answer(w, http.StatusBadRequest, code, nil)
		return
	}
	var content map[string]any
	if err != nil || json.Unmarshal([]byte(req.Content), &content) != nil ||
		(req.MsgType != "text" && req.MsgType != "post" && req.MsgType != "interactive") {
		s.answer(w, http.StatusBadRequest, CodeBadRequest, nil)
		return
	}
	s.stats.Replies++
	s.replies = append(s.replies, Reply{To: to, MsgType: req.MsgType, Content: req.Content})
	s.changes.Notify()
	s.answer(w, http.StatusOK, 0, map[string]any{"data": map[string]string{"message_id": fmt.Sprintf("om_reply_%d", s.stats.Replies)}})
}
