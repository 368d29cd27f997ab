package toolbox

import (
	"cmp"
	"slices"
	"strings"
)

// options is the grammar of a wrapper's options: short ones alone, short
// ones that take a value (joined, -n5, or the next word), long ones alone
// and long ones with a value (--name=v or the next word). An option it
// does not know stops the reading, so nothing unknown is taken for the
// command a wrapper runs.
type options struct {
	flags, values         string
	longFlags, longValues []string
}

// wrappers run the command that follows their options; the policy checks
// that command, not the wrapper.
var wrappers = map[string]*options{
	"env":     {flags: "i0v", values: "uCS", longFlags: []string{"ignore-environment", "null", "debug"}, longValues: []string{"unset", "chdir", "split-string"}},
	"nice":    {flags: "0123456789", values: "n", longValues: []string{"adjustment"}},
	"nohup":   {},
	"timeout": {flags: "v", values: "sk", longFlags: []string{"preserve-status", "foreground", "verbose"}, longValues: []string{"signal", "kill-after"}},
	"stdbuf":  {values: "ioe", longValues: []string{"input", "output", "error"}},
	"setsid":  {flags: "cfw", longFlags: []string{"ctty", "fork", "wait"}},
	"time":    {flags: "pv", values: "f", longFlags: []string{"portability", "verbose"}, longValues: []string{"format"}},
	"command": {flags: "pvV"},
	"builtin": {},
	"xargs": {flags: "0rtxpo", values: "adEILnPs",
		// --replace and --eof take a value only after "=".
		longFlags:  []string{"null", "no-run-if-empty", "verbose", "exit", "interactive", "open-tty", "replace", "eof"},
		longValues: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}},
}

// read takes the options off the front of words. It returns the words
// after them, the options by name ("n", "max-args") with their values,
// and false when a word is unknown or worked out at run time.
func (o *options) read(words []Word) ([]Word, map[string]string, bool) {
	got := map[string]string{}
	for len(words) > 0 {
		w := words[0]
		t := w.Text
		switch {
		case w.Dynamic:
			return nil, nil, false
		case t == "--":
			return words[1:], got, true
		case strings.HasPrefix(t, "--"):
			name, value, joined := strings.Cut(t[2:], "=")
			switch {
			case slices.Contains(o.longFlags, name) && !joined:
				got[name] = ""
			case slices.Contains(o.longValues, name) && joined:
				got[name] = value
			case slices.Contains(o.longValues, name) && len(words) > 1 && !words[1].Dynamic:
				got[name] = words[1].Text
				words = words[1:]
			default:
				return nil, nil, false
			}
		case len(t) > 1 && t[0] == '-':
		short:
			for i := 1; i < len(t); i++ {
				c := t[i]
				switch {
				case strings.IndexByte(o.flags, c) >= 0:
					got[string(c)] = ""
				case strings.IndexByte(o.values, c) >= 0 && i+1 < len(t):
					got[string(c)] = t[i+1:]
					break short
				case strings.IndexByte(o.values, c) >= 0 && len(words) > 1 && !words[1].Dynamic:
					got[string(c)] = words[1].Text
					words = words[1:]
					break short
				default:
					return nil, nil, false
				}
			}
		default:
			return words, got, true
		}
		words = words[1:]
	}
	return words, got, true
}

// unwrap is the command a wrapper runs (none: the wrapper alone), and
// false when it cannot be told before the line runs.
func (r *bashReader) unwrap(name string, args []Word) ([]Word, bool) {
	rest, opts, ok := wrappers[name].read(args)
	if !ok {
		return nil, false
	}
	switch name {
	case "env":
		if _, ok := opts["S"]; ok {
			return nil, false
		}
		if _, ok := opts["split-string"]; ok {
			return nil, false
		}
		for len(rest) > 0 && (rest[0].Text == "-" || strings.Contains(rest[0].Text, "=")) {
			if rest[0].Dynamic {
				return nil, false
			}
			if n, v, _ := strings.Cut(rest[0].Text, "="); riskyVariable(n, v) {
				r.risky("setting %s, which changes what programs run or load", n)
			}
			rest = rest[1:]
		}
	case "timeout":
		if len(rest) == 0 || rest[0].Dynamic {
			return nil, false
		}
		rest = rest[1:] // the duration
	case "command":
		_, v := opts["v"]
		_, bigV := opts["V"]
		if v || bigV {
			return nil, true // a lookup: runs nothing
		}
	case "xargs":
		if len(rest) == 0 {
			return []Word{{Text: "echo"}}, true
		}
		replace := opts["I"]
		if v, ok := opts["replace"]; ok {
			replace = cmp.Or(v, "{}")
		}
		if replace != "" {
			rest = slices.Clone(rest)
			for i := range rest {
				if strings.Contains(rest[i].Text, replace) {
					rest[i].Dynamic = true
				}
			}
		}
	}
	if len(rest) > 0 && rest[0].Dynamic {
		return nil, false
	}
	return rest, true
}

// find checks find's expression: what -exec and its kind run are commands
// of their own, and an argument that may split could hold an -exec.
func (r *bashReader) find(args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.split {
			r.risky("find with an argument worked out at run time (%s), which could hold -exec", a.Text)
			continue
		}
		switch a.Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		var run []Word
		more := false
		j := i + 1
		for ; j < len(args); j++ {
			w := args[j]
			if !w.Dynamic && (w.Text == ";" || w.Text == "+" && j > i+1 && args[j-1].Text == "{}") {
				more = w.Text == "+"
				break
			}
			if strings.Contains(w.Text, "{}") {
				w.Dynamic = true // a file's name
			}
			run = append(run, w)
		}
		if len(run) > 0 {
			r.command(run, shorten(texts(run)), more)
		}
		i = j
	}
}

func texts(ws []Word) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.Text
	}
	return strings.Join(s, " ")
}
