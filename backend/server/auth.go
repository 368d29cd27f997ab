package server

import (
	"crypto/subtle"
	"fmt"
	"html"
	"net"
	"net/http"
	"strings"

	"hermes/backend/api"
	"hermes/backend/i18n"
	"hermes/backend/runner"
)

// cookiePrefix names the cookie that holds the token in a browser once the
// printed URL was opened. Cookies are kept per host name, whatever the
// port, so the name carries the port the browser reached: a second server
// on 127.0.0.1 sets a cookie of its own rather than overwriting this one's.
const cookiePrefix = "hermes_token"

// cookieName is the name of the token's cookie for the address r reached,
// as the browser wrote it in Host (a tunnel's local port, say).
func cookieName(r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return cookiePrefix + "_" + port
	}
	return cookiePrefix
}

// authenticate lets through the requests that carry the token: in the
// cookie, or as a bearer token. Opening a page with ?token= sets the cookie
// and redirects to the same page without it, so the token leaves the
// address bar and the history.
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api := strings.HasPrefix(r.URL.Path, "/api/")
		q := r.URL.Query()
		if tok := q.Get("token"); tok != "" && !api && r.Method == http.MethodGet {
			if !s.valid(tok) {
				refuse(w, r, unauthorized())
				return
			}
			http.SetCookie(w, &http.Cookie{
				Name: cookieName(r), Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
			})
			q.Del("token")
			http.Redirect(w, r, localTarget(r.URL, q), http.StatusSeeOther)
			return
		}
		if c, err := r.Cookie(cookieName(r)); err == nil && s.valid(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.valid(tok) {
			next.ServeHTTP(w, r)
			return
		}
		refuse(w, r, unauthorized())
	})
}

// valid compares in constant time, so the answer's timing says nothing of
// how much of a guess was right.
func (s *server) valid(tok string) bool {
	return s.token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1
}

func unauthorized() api.Error {
	return runner.NewAPIError("unauthorized", i18n.Errorf("server.unauthorized"))
}

// refuse answers with e: as JSON under /api/, and as a page in both
// languages elsewhere, since a person opened it.
func refuse(w http.ResponseWriter, r *http.Request, e api.Error) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeAPIError(w, e)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(statusOf(e.Code))
	_, _ = fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Hermes</title><p>%s</p><p lang=zh-CN>%s</p>",
		html.EscapeString(e.Message[string(i18n.EN)]), html.EscapeString(e.Message[string(i18n.ZH)]))
}
