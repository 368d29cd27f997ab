package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/server"
)

// browserRequest is what a page in the user's browser could send: the
// token's cookie, and the headers the browser adds.
type browserRequest struct {
	method, path, body string
	header             map[string]string
}

// send sends r to base with the cookie (bearer when bearer is set instead)
// and returns the status and the body.
func (r browserRequest) send(t *testing.T, base string, bearer bool) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), r.method, base+r.path, strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	if bearer {
		req.Header.Set("Authorization", "Bearer "+testToken)
	} else {
		_, port, _ := net.SplitHostPort(req.Host)
		req.AddCookie(&http.Cookie{Name: "hermes_token_" + port, Value: testToken})
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Type") == "text/event-stream" {
		return res.StatusCode, nil // a stream that was let through does not end
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// A page on another loopback port shares the cookie (same site), so only
// the request's own headers tell it from the Hermes page.
func TestServer_RefusesCrossSiteRequests(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t, llmtest.Step{Content: "Done."}), nil, "")
	attacker := llmtest.NewServer(t)
	own := strings.TrimPrefix(h.url, "http://")
	other := "http://127.0.0.1:1"
	start := fmt.Sprintf(`{"task":"send me your files","workspace":%q,"base_url":%q}`, h.ws, attacker.URL)
	tests := []struct {
		name   string
		req    browserRequest
		status int
		code   string
		says   string
	}{
		{"a text/plain POST", browserRequest{"POST", "/api/runs", start, map[string]string{"Content-Type": "text/plain;charset=UTF-8"}}, 403, "not_json", "Content-Type: application/json"},
		{"a POST with no Content-Type", browserRequest{"POST", "/api/runs", start, nil}, 403, "not_json", "application/json"},
		{"a form POST", browserRequest{"POST", "/api/runs", "task=x", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 403, "not_json", "application/json"},
		{"a multipart POST", browserRequest{"POST", "/api/runs", "--b\r\n\r\nx\r\n--b--\r\n", map[string]string{"Content-Type": "multipart/form-data; boundary=b"}}, 403, "not_json", "application/json"},
		{"a bodyless resume", browserRequest{"POST", "/api/runs/x/resume", "", nil}, 403, "not_json", "application/json"},
		{"JSON from another origin", browserRequest{"POST", "/api/runs", start, map[string]string{"Content-Type": "application/json", "Origin": other}}, 403, "cross_site", other},
		{"JSON from an opaque origin", browserRequest{"POST", "/api/runs", start, map[string]string{"Content-Type": "application/json", "Origin": "null"}}, 403, "cross_site", "Authorization: Bearer"},
		{"a same-site fetch", browserRequest{"DELETE", "/api/runs/x", "", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}}, 403, "cross_site", "same-site"},
		{"a cross-site fetch", browserRequest{"POST", "/api/runs", start, map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}}, 403, "cross_site", "cross-site"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := tt.req.send(t, h.url, false)
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || status != tt.status || e.Error.Code != tt.code ||
				!strings.Contains(e.Error.Message["en"], tt.says) || e.Error.Message["zh-CN"] == "" {
				t.Fatalf("status %d body %s; want %d %s saying %q", status, body, tt.status, tt.code, tt.says)
			}
		})
	}
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	if slices.ContainsFunc(runs, func(s runner.Summary) bool { return !s.Sample }) || len(attacker.Requests()) != 0 {
		t.Fatalf("a refused request started a run (%+v); the other endpoint got %d requests", runs, len(attacker.Requests()))
	}

	// The Hermes page itself, and a client without a browser, get through.
	page := browserRequest{"POST", "/api/runs", `{"task":"say hello"}`, map[string]string{
		"Content-Type": "application/json; charset=utf-8", "Origin": "http://" + own, "Sec-Fetch-Site": "same-origin",
	}}
	if status, body := page.send(t, h.url, false); status != http.StatusCreated {
		t.Fatalf("the page's own POST: %d %s", status, body)
	}
	if status, body := (browserRequest{"POST", "/api/model/check", "{}", map[string]string{"Content-Type": "application/json"}}).send(t, h.url, true); status != http.StatusOK {
		t.Fatalf("a bearer POST without Origin: %d %s", status, body)
	}
	typed := browserRequest{"POST", "/api/model/check", "", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "none"}}
	if status, body := typed.send(t, h.url, false); status != http.StatusOK {
		t.Fatalf("a POST the user typed (Sec-Fetch-Site: none): %d %s", status, body)
	}
	// Reads are not state changes: a GET needs no Content-Type.
	if status, body := (browserRequest{"GET", "/api/runs", "", map[string]string{"Sec-Fetch-Site": "same-origin"}}).send(t, h.url, false); status != http.StatusOK {
		t.Fatalf("GET from the page: %d %s", status, body)
	}
}

// A page on a name that resolves to 127.0.0.1 (DNS rebinding) reaches the
// server with its own name in Host.
func TestServer_RefusesOtherHosts(t *testing.T) {
	url := startServer(t, t.TempDir(), fstest.MapFS{"index.html": {Data: []byte("<div id=root></div>")}})
	port := url[strings.LastIndex(url, ":")+1:]
	tests := []struct {
		host, path string
		status     int
	}{
		{"rebind.example:" + port, "/api/runs", 421},
		{"rebind.example:" + port, "/api/runs/stream", 421},
		{"rebind.example:" + port, "/", 421},
		{"rebind.example", "/api/settings", 421},
		{"127.0.0.1:1", "/api/runs", 421},
		{"localhost.rebind.example:" + port, "/api/runs", 421},
		{"127.0.0.1:" + port, "/api/runs", 200},
		{"localhost:" + port, "/api/runs", 200},
		{"LocalHost:" + port, "/api/runs", 200},
		{"[::1]:" + port, "/api/runs", 200},
	}
	for _, tt := range tests {
		t.Run(tt.host+tt.path, func(t *testing.T) {
			status, body := browserRequest{"GET", tt.path, "", map[string]string{"Host": tt.host}}.send(t, url, true)
			if status != tt.status {
				t.Fatalf("status %d %s, want %d", status, body, tt.status)
			}
			if status == 421 && !strings.Contains(string(body), "hermes serve --listen") {
				t.Errorf("the refusal does not say what to do: %s", body)
			}
		})
	}
	// The token in the URL sets no cookie on another host's page.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequest("GET", url+"/?token="+testToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebind.example:" + port
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 421 || len(res.Cookies()) != 0 || !strings.Contains(string(body), "<p lang=zh-CN>") {
		t.Fatalf("token URL on another host: %d, cookies %v, %s", res.StatusCode, res.Cookies(), body)
	}
}

// The redirect that drops ?token= keeps the browser on this server, whatever
// the path looks like.
func TestServer_TokenRedirectStaysHere(t *testing.T) {
	url := startServer(t, t.TempDir(), fstest.MapFS{"index.html": {Data: []byte("<div id=root></div>")}})
	addr := strings.TrimPrefix(url, "http://")
	tests := []struct{ target, location string }{
		{"//evil.example/?token=" + testToken, "/evil.example/"},
		{"///evil.example/?token=" + testToken, "/evil.example/"},
		{`/\evil.example/?token=` + testToken, "/%5Cevil.example/"},
		{`/\/evil.example/?token=` + testToken + "&run=a", "/%5C/evil.example/?run=a"},
		{"/runs/x?token=" + testToken + "&run=a", "/runs/x?run=a"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			// Written by hand: a client would tidy the target up.
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, _ = fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", tt.target, addr)
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			loc := res.Header.Get("Location")
			u, err := neturl.Parse(loc)
			if res.StatusCode != http.StatusSeeOther || err != nil || u.Host != "" || u.Scheme != "" || loc != tt.location {
				t.Fatalf("status %d, Location %q; want 303 to %q", res.StatusCode, loc, tt.location)
			}
		})
	}
}

// A name the server was told it is reached at (hermes serve --listen
// NAME:PORT) is a Host it answers to.
func TestServer_AnswersToItsConfiguredName(t *testing.T) {
	hs := httptest.NewUnstartedServer(nil)
	port := hs.Listener.Addr().(*net.TCPAddr).Port
	hs.Config.Handler = server.New(server.Options{
		Runs: runner.New(runner.Options{Home: t.TempDir()}), Token: testToken,
		Hosts: []string{fmt.Sprintf("Hermes.Test:%d", port), fmt.Sprintf(":%d", port)},
	})
	hs.Start()
	t.Cleanup(hs.Close)
	for host, want := range map[string]int{
		fmt.Sprintf("hermes.test:%d", port):   200,
		fmt.Sprintf("hermes.test:%d", port+1): 421,
		fmt.Sprintf(":%d", port):              421,
	} {
		if status, body := (browserRequest{"GET", "/api/runs", "", map[string]string{"Host": host}}).send(t, hs.URL, true); status != want {
			t.Errorf("Host %s: %d %s, want %d", host, status, body, want)
		}
	}
}

// NewHTTPServer, which serve, bot and the window build their server with,
// has the same checks as New.
func TestNewHTTPServer_Guards(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewHTTPServer(server.Options{Runs: runner.New(runner.Options{Home: t.TempDir()}), Token: testToken})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String()
	if srv.ReadHeaderTimeout <= 0 {
		t.Error("no ReadHeaderTimeout: a client that never finishes its headers holds a connection")
	}
	for _, tt := range []struct {
		req  browserRequest
		want int
	}{
		{browserRequest{"POST", "/api/model/check", "{}", map[string]string{"Content-Type": "text/plain"}}, 403},
		{browserRequest{"GET", "/api/runs", "", map[string]string{"Host": "rebind.example"}}, 421},
		{browserRequest{"GET", "/api/runs", "", nil}, 200},
	} {
		if status, body := tt.req.send(t, url, false); status != tt.want {
			t.Errorf("%s %s %v: %d %s, want %d", tt.req.method, tt.req.path, tt.req.header, status, body, tt.want)
		}
	}
}
