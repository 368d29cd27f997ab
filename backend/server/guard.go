package server

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"hermes/backend/api"
	"hermes/backend/i18n"
	"hermes/backend/runner"
)

// checkHost refuses a request whose Host is not an address this server is
// reached at. A page on a name the attacker makes resolve to 127.0.0.1 (DNS
// rebinding) is same-origin with itself, not with Hermes, and its Host
// says so.
func (s *server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.knownHost(r) {
			next.ServeHTTP(w, r)
			return
		}
		refuse(w, r, runner.NewAPIError("wrong_host", i18n.Errorf("server.wrong_host", r.Host)))
	})
}

// knownHost: Host names the local address the request reached (its IP and
// port; on loopback "localhost" or any loopback IP with that port), or one
// of the names Options.Hosts gave.
func (s *server) knownHost(r *http.Request) bool {
	host := strings.ToLower(r.Host)
	for _, h := range s.hosts {
		if host == h {
			return true
		}
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if local == nil {
		return false
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = strings.Trim(host, "[]"), "80" // no port: the default one
	}
	if port != strconv.Itoa(local.Port) {
		return false
	}
	if name == "localhost" {
		return local.IP.IsLoopback()
	}
	ip := net.ParseIP(name)
	return ip != nil && (ip.Equal(local.IP) || ip.IsLoopback() && local.IP.IsLoopback())
}

// sameOrigin refuses a request that changes something unless it is JSON
// and no browser says it came from another page. Any page the user opens
// may send requests to loopback, and a page on another loopback port is the
// same site, so it carries the cookie: but it cannot send JSON without a
// preflight this server never answers, and its browser names its origin.
// Clients without a browser (hermes run, curl) send neither header.
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e, refused := crossSite(r); refused {
			writeAPIError(w, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func crossSite(r *http.Request) (api.Error, bool) {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return api.Error{}, false
	}
	if o := r.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || !strings.EqualFold(u.Host, r.Host) {
			return runner.NewAPIError("cross_site", i18n.Errorf("server.cross_origin", o)), true
		}
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return runner.NewAPIError("cross_site", i18n.Errorf("server.cross_site", site)), true
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return runner.NewAPIError("not_json", i18n.Errorf("server.not_json", r.Header.Get("Content-Type"))), true
	}
	return api.Error{}, false
}

// localTarget is where the redirect that drops ?token= goes: this server's
// path, never "//host" or "/\host", which a browser takes for another host.
func localTarget(u *url.URL, q url.Values) string {
	target := "/" + strings.TrimLeft(u.EscapedPath(), `/\`)
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	return target
}
