package config

import (
	"net"
	"net/url"
	"strings"

	"hermes/backend/i18n"
)

// Endpoint is a model endpoint besides [model] base_url that a run may be
// pointed at (a run's base_url in the API, hermes run --base-url), with the
// key to send it: the configured key goes to the configured endpoint only.
type Endpoint struct {
	BaseURL   string `toml:"base_url"`
	APIKey    string `toml:"api_key"`
	APIKeyEnv string `toml:"api_key_env"` // name of an environment variable holding the key
}

// At returns the settings of a run pointed at baseURL ("" for the
// configured endpoint), with the environment layered first (FromEnv). The
// key follows the endpoint, never the request: the configured key is sent
// to the configured endpoint only, another endpoint gets the key of its
// [[model.endpoints]] entry, else none, so a request that names its own
// base_url cannot draw the user's key to it. known reports whether the
// endpoint is the configured one or has an entry.
func (m Model) At(baseURL string, getenv func(string) string) (settings Model, known bool) {
	m = m.FromEnv(getenv)
	if baseURL == "" || SameEndpoint(baseURL, m.BaseURL) {
		return m, true
	}
	m.BaseURL, m.APIKey = baseURL, ""
	for _, e := range m.Endpoints {
		if SameEndpoint(baseURL, e.BaseURL) {
			m.APIKey = e.APIKey
			if e.APIKeyEnv != "" {
				m.APIKey = getenv(e.APIKeyEnv)
			}
			return m, true
		}
	}
	return m, false
}

// SameEndpoint reports whether two base URLs name one endpoint: the same
// scheme, host, port and path, whatever the letter case of the scheme and
// host, a default port written out, or a trailing slash. A URL that does not
// parse matches none.
func SameEndpoint(a, b string) bool {
	ka, kb := endpointKey(a), endpointKey(b)
	return ka != "" && ka == kb
}

func endpointKey(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port) + strings.TrimRight(u.EscapedPath(), "/")
}

// validateEndpoints reports an entry whose base_url is not an http or https
// URL, and an endpoint listed twice.
func (m Model) validateEndpoints() []error {
	var errs []error
	seen := map[string]bool{}
	for i, e := range m.Endpoints {
		u, err := url.Parse(e.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.endpoint.base_url", i+1, shownURL(e.BaseURL)))
			continue
		}
		if k := endpointKey(e.BaseURL); seen[k] {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.endpoint.twice", shownURL(e.BaseURL)))
		} else {
			seen[k] = true
		}
	}
	return errs
}
