package sandbox

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A Denial is one thing the sandbox stopped.
type Denial struct {
	Kind string // DenialWrite, DenialRead, DenialLink, DenialNetwork or DenialCall
	What string // the path, or the call ("socket(AF_INET)", "unshare")
	By   string // the program, when known
}

// The kinds of Denial.
const (
	DenialWrite   = "write"
	DenialRead    = "read"
	DenialLink    = "link"
	DenialProcess = "process"
	DenialNetwork = "network"
	DenialCall    = "call"
)

// String says what was stopped and why, in English, for the model.
func (d Denial) String() string {
	var why string
	switch d.Kind {
	case DenialWrite:
		why = "outside the workspace"
	case DenialRead:
		why = "hidden from the agent: the Hermes home, credentials, others' files"
	case DenialLink:
		why = "a link from outside the workspace into it"
	case DenialProcess:
		why = "another process's environment or memory"
	case DenialNetwork:
		why = "the sandbox has no network"
	default:
		why = "a call that could leave the sandbox"
	}
	var s string
	switch d.Kind {
	case DenialNetwork, DenialCall:
		s = d.What
	case DenialProcess:
		s = "read " + d.What
	default:
		s = d.Kind + " " + d.What
	}
	if d.By != "" {
		s += " by " + d.By
	}
	return s + " (" + why + ")"
}

// Blocked is what the sandbox stopped while the process ran: the calls
// the seccomp filter refused, and the reads, writes and links Landlock
// refused that output names. Landlock tells no one what it refuses, so
// those are the paths of the output's permission errors that the policy
// explains: a hidden path, or one outside every writable folder that the
// user could have written. It is meant for after Wait.
func (pr *Process) Blocked(output string) []Denial {
	var out []Denial
	if pr.watch != nil {
		out = pr.watch.recorded()
	}
	if !pr.status.Enforced {
		return out
	}
	hidden, writable := pr.policy.HiddenPaths(), pr.writable()
	seen := map[string]bool{}
	for _, line := range strings.Split(output, "\n") {
		lower := strings.ToLower(line)
		link := strings.Contains(lower, "cross-device link")
		if !link && !strings.Contains(lower, "permission denied") && !strings.Contains(lower, "operation not permitted") {
			continue
		}
		for _, p := range pathsIn(line) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(pr.cmd.Dir, p)
			}
			p = filepath.Clean(p)
			// Name what the sandbox protected, not the link that led there.
			if real, err := filepath.EvalSymlinks(p); err == nil {
				p = real
			}
			d := Denial{What: p}
			switch {
			case procOfOther().MatchString(p):
				d.Kind = DenialProcess
			case concealed(hidden, pr.policy.granted(), p):
				d.Kind = DenialRead
			case link:
				d.Kind = DenialLink
			case nearest(writable, p) < 0 && userMayWrite(p):
				d.Kind = DenialWrite
			default:
				continue
			}
			if key := d.Kind + d.What; !seen[key] && len(out) < maxBlocked {
				seen[key] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// maxBlocked bounds the denials a result lists.
const maxBlocked = 8

// writable are the folders the process may write.
func (pr *Process) writable() []string {
	out := []string{pr.tmp}
	if pr.policy.Mode == Workspace {
		out = append(out, pr.policy.granted()...)
	} else {
		for _, w := range pr.policy.Writable {
			out = append(out, filepath.Clean(expandHome(w)))
		}
	}
	return append(out, deviceDirs...)
}

// bareRE finds the path of the usual "program: path: error" line.
var bareRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`: ([^\s:'"‘’]+): (?i:permission denied|operation not permitted|invalid cross-device link)\s*$`)
})

// procOfOther matches the files of another process in /proc.
var procOfOther = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/proc/[0-9]+/`) })

// pathRE finds the paths an error message names: quoted in any of the
// ways programs quote them, or bare and starting with /, ./, ../ or ~/.
var pathRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`'([^'\n]+)'|"([^"\n]+)"|‘([^’\n]+)’|` + "`([^'`\\n]+)'" + `|(?:^|[\s:(=])((?:/|\./|\.\./|~/)[^\s:'"‘’(),]*)`)
})

func pathsIn(line string) []string {
	var out []string
	// "cat: key: Permission denied": the part before the error is a path,
	// relative ones too.
	if m := bareRE().FindStringSubmatch(line); m != nil {
		out = append(out, m[1])
	}
	for i, m := range pathRE().FindAllStringSubmatchIndex(line, -1) {
		// The program that wrote the line ("/usr/bin/bash: line 1: …").
		if i == 0 && m[0] == 0 && strings.HasPrefix(line[m[1]:], ":") {
			continue
		}
		m := submatches(line, m)
		for _, g := range m {
			if g == "" {
				continue
			}
			g = expandHome(g)
			if (strings.HasPrefix(g, "/") || strings.HasPrefix(g, "./") || strings.HasPrefix(g, "../")) && !slices.Contains(out, g) {
				out = append(out, g)
			}
			break
		}
	}
	return out
}

// submatches are the groups of one match that FindAllStringSubmatchIndex
// found, "" for those that did not take part.
func submatches(s string, loc []int) []string {
	var out []string
	for i := 2; i+1 < len(loc); i += 2 {
		if loc[i] < 0 {
			out = append(out, "")
			continue
		}
		out = append(out, s[loc[i]:loc[i+1]])
	}
	return out
}
