// Package desktoplink is the link that opens the desktop window on a run,
// hermes://run/ID?home=HOME. Where the system hands a notification's click
// to no process but by a link (a toast on Windows), the notification
// carries one; the installer registers the scheme with hermes.exe, which
// opens the window on that run, or passes the link to the window already
// open on the home. It is its own package, small, since every start of
// hermes reads its arguments with it.
package desktoplink

import (
	"net/url"
	"path/filepath"
	"strings"
)

// Scheme is the URL scheme of a link that opens Hermes on a run.
const Scheme = "hermes"

// isRunID says whether id may be a run's id in a link: as Hermes makes
// them (letters, digits, "-" and "_", up to 100), and so nothing that
// could leave the logs' folder.
func isRunID(id string) bool {
	if id == "" || len(id) > 100 || id[0] == '-' || id[0] == '_' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Run is the link that opens the window of home on run id:
// hermes://run/ID?home=HOME, with nothing in it that XML or a command
// line would read as their own (the query is escaped whole).
func Run(home, id string) string {
	return Scheme + "://run/" + url.PathEscape(id) + "?home=" + url.QueryEscape(home)
}

// Parse reads a link Run made: the home (an absolute path) and
// the run; false for anything else, which opens nothing. A link can come
// from any page or program, so it only ever shows a run.
func Parse(link string) (home, id string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || !strings.EqualFold(u.Scheme, Scheme) || u.Host != "run" || u.User != nil || u.Fragment != "" {
		return "", "", false
	}
	id = strings.TrimPrefix(u.Path, "/")
	q := u.Query()
	home = q.Get("home")
	if !isRunID(id) || len(q) != 1 || home == "" || !filepath.IsAbs(home) || filepath.Clean(home) != home {
		return "", "", false
	}
	return home, id, true
}
