// Package wecomtest is a local HTTP server that speaks the part of the
// WeCom server API the bot uses — gettoken, open user id conversion,
// message/send and the contacts' user/get and department/get — with WeCom's error codes and a rate limit, and a client
// that posts signed, encrypted callbacks as WeCom does. Like llmtest it is
// for tests and benchmarks; production code never imports it.
package wecomtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"hermes/backend/chatapi/chatapitest"
)

// WeCom's error codes, as the server answers them.
const (
	CodeBusy          = -1
	CodeInvalidSecret = 40001
	CodeInvalidCorpID = 40013
	CodeInvalidToken  = 40014
	CodeTokenExpired  = 42001
	CodeFreqLimit     = 45009
)

// Server is a fake WeCom API for one company and one application. URL is
// its base, to be given as [bot] api_base.
type Server struct {
	URL string

	corpID, secret string
	// limit is how many calls may arrive in any one second; more are
	// answered with 45009 and counted.
	limit int

	srv *httptest.Server

	mu        sync.Mutex
	tokens    map[string]bool // token -> still valid
	issued    int
	openIDs   map[string]string
	faults    []int // errcodes for the next message/send calls
	arrivals  chatapitest.Window
	stats     Stats
	messages  map[string][]string
	changes   chatapitest.Changes // told whenever a message is sent or contacts read
	expiresIn int

	users         map[string]contactUser
	depts         map[int]contactDept
	denyContacts  int   // the errcode every contacts call gets; 0: none
	contactFaults []int // errcodes for the next contacts calls
}

// Stats counts what the server saw.
type Stats struct {
	GetToken  int // gettoken calls answered with a token
	Convert   int // conversion calls answered
	Send      int // message/send calls that delivered a message
	UserGet   int // user/get calls past the token check
	DeptGet   int // department/get calls past the token check
	Refused   int // calls answered with an error code
	OverLimit int // calls beyond the rate limit
	// MaxPerSecond is the most calls that arrived within any one second.
	MaxPerSecond int
}

// NewServer starts a server for corpID and secret that allows limit calls
// per second (0: no limit). It is closed when the test ends.
func NewServer(t testing.TB, corpID, secret string, limit int) *Server {
	s := &Server{
		corpID: corpID, secret: secret, limit: limit,
		tokens: map[string]bool{}, openIDs: map[string]string{}, messages: map[string][]string{},
		users: map[string]contactUser{}, depts: map[int]contactDept{}, expiresIn: 7200,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /cgi-bin/gettoken", s.getToken)
	mux.HandleFunc("POST /cgi-bin/batch/openuserid_to_userid", s.convert)
	mux.HandleFunc("POST /cgi-bin/message/send", s.send)
	mux.HandleFunc("GET /cgi-bin/user/get", s.userGet)
	mux.HandleFunc("GET /cgi-bin/department/get", s.departmentGet)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// MapOpenID makes open user id open convert to user id user.
func (s *Server) MapOpenID(open, user string) {
	s.mu.Lock()
	s.openIDs[open] = user
	s.mu.Unlock()
}

// FailSends answers the next message/send calls with these error codes,
// one each, before sending again.
func (s *Server) FailSends(codes ...int) {
	s.mu.Lock()
	s.faults = append(s.faults, codes...)
	s.mu.Unlock()
}

// ExpireTokens makes every token issued so far expired (42001).
func (s *Server) ExpireTokens() {
	s.mu.Lock()
	for k := range s.tokens {
		s.tokens[k] = false
	}
	s.mu.Unlock()
}

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Messages returns the texts sent to user, in order.
func (s *Server) Messages(user string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.messages[user]...)
}

// WaitFor blocks until cond, called with the messages sent so far by user,
// returns true, or ctx is done. It wakes on each message, never on a timer.
func (s *Server) WaitFor(ctx context.Context, cond func(byUser map[string][]string) bool) error {
	if err := s.changes.Wait(ctx, &s.mu, func() bool { return cond(s.messages) }); err != nil {
		return fmt.Errorf("wecomtest: waiting for messages: %w", err)
	}
	return nil
}

// arrive counts a call against the rate limit and reports whether it is
// over it. Call with s.mu held.
func (s *Server) arrive() bool {
	n := s.arrivals.Arrive()
	s.stats.MaxPerSecond = max(s.stats.MaxPerSecond, n)
	if s.limit > 0 && n > s.limit {
		s.stats.OverLimit++
		return true
	}
	return false
}

func (s *Server) answer(w http.ResponseWriter, code int, body map[string]any) {
	if body == nil {
		body = map[string]any{}
	}
	body["errcode"] = code
	body["errmsg"] = "ok"
	if code != 0 {
		s.stats.Refused++
		body["errmsg"] = fmt.Sprintf("wecomtest error %d, more info at https://open.work.weixin.qq.com/devtool/query?e=%d", code, code)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body) // a client gone has no one to be told
}

func (s *Server) getToken(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := r.URL.Query()
	switch {
	case s.arrive():
		s.answer(w, CodeFreqLimit, nil)
	case q.Get("corpid") != s.corpID:
		s.answer(w, CodeInvalidCorpID, nil)
	case q.Get("corpsecret") != s.secret:
		s.answer(w, CodeInvalidSecret, nil)
	default:
		s.issued++
		tok := fmt.Sprintf("wecomtest-token-%d", s.issued)
		s.tokens[tok] = true
		s.stats.GetToken++
		s.answer(w, 0, map[string]any{"access_token": tok, "expires_in": s.expiresIn})
	}
}

// authorize checks the access token; it returns 0 or the code to answer.
func (s *Server) authorize(r *http.Request) int {
	if s.arrive() {
		return CodeFreqLimit
	}
	valid, known := s.tokens[r.URL.Query().Get("access_token")]
	switch {
	case !known:
		return CodeInvalidToken
	case !valid:
		return CodeTokenExpired
	}
	return 0
}

func (s *Server) convert(w http.ResponseWriter, r *http.Request) {
	var req struct {
		OpenUserIDs []string `json:"open_userid_list"`
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	if code := s.authorize(r); code != 0 {
		s.answer(w, code, nil)
		return
	}
	if err != nil {
		s.answer(w, 47001, nil) // data format error
		return
	}
	s.stats.Convert++
	list, invalid := []map[string]string{}, []string{}
	for _, open := range req.OpenUserIDs {
		if user, ok := s.openIDs[open]; ok {
			list = append(list, map[string]string{"open_userid": open, "userid": user})
		} else {
			invalid = append(invalid, open)
		}
	}
	s.answer(w, 0, map[string]any{"userid_list": list, "invalid_open_userid_list": invalid})
}

func (s *Server) send(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ToUser  string `json:"touser"`
		MsgType string `json:"msgtype"`
		AgentID int    `json:"agentid"`
		Text    struct {
			Content string `json:"content"`
		} `json:"text"`
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	if code := s.authorize(r); code != 0 {
		s.answer(w, code, nil)
		return
	}
	if len(s.faults) > 0 {
		code := s.faults[0]
		s.faults = s.faults[1:]
		s.answer(w, code, nil)
		return
	}
	if err != nil || req.MsgType != "text" || req.ToUser == "" {
		s.answer(w, 47001, nil)
		return
	}
	if len(req.Text.Content) > 2048 {
		s.answer(w, 45002, nil) // content too long
		return
	}
	s.stats.Send++
	s.messages[req.ToUser] = append(s.messages[req.ToUser], req.Text.Content)
	s.changes.Notify()
	s.answer(w, 0, map[string]any{"invaliduser": "", "msgid": fmt.Sprintf("msg-%d", s.stats.Send)})
}
