package server_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"hermes/backend/runner"
	"hermes/backend/server"
)

func TestServer_TokenRefusals(t *testing.T) {
	url := startServer(t, t.TempDir(), fstest.MapFS{"index.html": {Data: []byte("<div id=root></div>")}})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		name, path, auth, cookie string
		status                   int
		contains                 string
	}{
		{"API without a token", "/api/runs", "", "", 401, `"code":"unauthorized"`},
		{"API with a wrong token", "/api/runs", "Bearer nope", "", 401, "Open the URL that `hermes serve` printed"},
		{"API with the token in the query", "/api/runs?token=" + testToken, "", "", 401, "令牌"},
		{"a stream without a token", "/api/runs/stream", "", "", 401, "unauthorized"},
		{"the page without a token", "/", "", "", 401, "<p lang=zh-CN>"},
		{"the page with a wrong token", "/?token=wrong", "", "", 401, "hermes serve"},
		{"the page with a wrong cookie", "/", "", "wrong", 401, "hermes serve"},
		{"the page with the cookie", "/", "", testToken, 200, "<div id=root>"},
		{"API with the bearer token", "/api/settings", "Bearer " + testToken, "", 200, `"has_key"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", url+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			if tt.cookie != "" {
				req.AddCookie(&http.Cookie{Name: "hermes_token_" + req.URL.Port(), Value: tt.cookie})
			}
			res, err := noRedirect.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.status || !strings.Contains(string(body), tt.contains) {
				t.Fatalf("status %d body %s; want %d with %q", res.StatusCode, body, tt.status, tt.contains)
			}
		})
	}
}

func TestServer_TokenURLSetsCookieAndDropsTheToken(t *testing.T) {
	url := startServer(t, t.TempDir(), fstest.MapFS{"index.html": {Data: []byte("<div id=root></div>")}})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.Get(url + "/?token=" + testToken + "&run=abc")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?run=abc" {
		t.Fatalf("status %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	c := res.Cookies()
	if len(c) != 1 || c[0].Name != "hermes_token_"+res.Request.URL.Port() || c[0].Value != testToken || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookies %+v", c)
	}

	// A browser that follows the redirect then reaches the API with the cookie.
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	for _, path := range []string{"/?token=" + testToken, "/api/runs"} {
		res, err := browser.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s with the cookie: %d", path, res.StatusCode)
		}
	}
}

// Two servers on one host name, each with its own token, opened in one
// browser: cookies are kept per host whatever the port, so each server's
// cookie must be a name of its own or the second would log the first out.
func TestServer_CookiePerPort(t *testing.T) {
	index := fstest.MapFS{"index.html": {Data: []byte("<div id=root></div>")}}
	const otherToken = "fedcba9876543210fedcba9876543210"
	first := startServer(t, t.TempDir(), index)
	other := httptest.NewServer(server.New(server.Options{Runs: runner.New(runner.Options{Home: t.TempDir()}), Token: otherToken, Assets: index}))
	t.Cleanup(other.Close)

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	for _, open := range []string{first + "/?token=" + testToken, other.URL + "/?token=" + otherToken} {
		res, err := browser.Get(open)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	for _, url := range []string{first, other.URL} {
		res, err := browser.Get(url + "/api/runs")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s/api/runs after both were opened: %d", url, res.StatusCode)
		}
	}
}
