// Package i18n gives every user-facing string in zh-CN and en.
//
// Each package registers its own messages in an init function, keyed by a
// dotted name ("run.missing_key"), as a function that returns them: a
// package's messages are made when a message is looked up and not found
// among those made already, not in the start of every process (`hermes
// version` looks up none). T renders one in the
// current language, falling back to English. Text meant for the model stays
// in English: what only the model reads does not go through here, and what a
// person reads too is a Text, rendered In(EN) for the model.
package i18n

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Lang is a UI language.
type Lang string

// The languages of the UI and the messages.
const (
	EN Lang = "en"
	ZH Lang = "zh-CN"
)

// Msg is one message in both languages; fmt verbs take T's arguments.
// EN1, when set, is the English when the message's count, its first
// integer argument, is 1: "1 tool checked", not "1 tools checked".
type Msg struct {
	EN  string
	ZH  string
	EN1 string
}

var (
	mu      sync.RWMutex
	pending []registered // not yet in catalog
	catalog = map[string]Msg{}
	current = Detect()
)

// registered is one Register's messages, not yet made.
type registered struct {
	make func() map[string]Msg
	pkg  string // the name of make's package, once looked up
	fn   string // make's own name in it ("botMessages"), once looked up
}

// Register adds messages to the catalog: a function that returns them,
// called when a message is first looked up, or the messages themselves. A
// key registered twice is a programming error and panics then, which any
// test that renders a message sees.
func Register[M map[string]Msg | func() map[string]Msg](msgs M) {
	mu.Lock()
	defer mu.Unlock()
	switch m := any(msgs).(type) {
	case func() map[string]Msg:
		pending = append(pending, registered{make: m})
	case map[string]Msg:
		pending = append(pending, registered{make: func() map[string]Msg { return m }})
	}
}

// lookup returns message key. The packages' messages join the catalog as
// they are needed: first those of the package the key's first part names,
// which by custom holds it ("cli.flag.home" is cli's message), the catalog
// named for its second part first ("cli.bot.…" in cli's botMessages), then
// the others, the last registered first, until key is in it (a key that is
// not adds them all): a package registers after those it imports, so
// cli's, whose flags every command looks up, are made first, and the
// messages of packages a command never speaks for are never made. A key
// registered twice panics when its second package's messages join.
func lookup(key string) (Msg, bool) {
	mu.RLock()
	m, ok := catalog[key]
	more := len(pending) > 0
	mu.RUnlock()
	if ok || !more {
		return m, ok
	}
	mu.Lock()
	defer mu.Unlock()
	if m, ok = catalog[key]; ok { // made meanwhile
		return m, ok
	}
	if pkg, rest, found := strings.Cut(key, "."); found {
		if p, ok := keptKeys[pkg]; ok {
			pkg = p
		}
		topic, _, _ := strings.Cut(rest, ".")
		for _, named := range []bool{true, false} {
			for i := len(pending) - 1; i >= 0 && !ok; i-- {
				if r := &pending[i]; r.pkgName() == pkg && (!named || r.names(topic)) {
					m, ok = makePending(i, key)
				}
			}
		}
	}
	for !ok && len(pending) > 0 {
		m, ok = makePending(len(pending)-1, key)
	}
	return m, ok
}

// keptKeys names the package of the keys a renamed package kept, by the
// first part they still have: texts already written (a run's log, a
// verdict's reason) hold the old keys. The tool registry was skills.
var keptKeys = map[string]string{"skills": "toolbox"}

// makePending makes pending[i]'s messages, adds them to the catalog and
// looks key up again. It runs under mu.
func makePending(i int, key string) (Msg, bool) {
	made := pending[i].make()
	pending = slices.Delete(pending, i, i+1)
	for k, msg := range made {
		if _, dup := catalog[k]; dup {
			panic("i18n: message registered twice: " + k)
		}
		catalog[k] = msg
	}
	m, ok := catalog[key]
	return m, ok
}

// pkgName is the last element of the path of the package whose function
// made r ("toolbox" for hermes/backend/toolbox.catalogMessages), looked up
// once, at the first message not found.
func (r *registered) pkgName() string {
	if r.pkg == "" {
		r.pkg = "-" // not a package's name
		if fn := runtime.FuncForPC(reflect.ValueOf(r.make).Pointer()); fn != nil {
			name, _, _ := strings.Cut(fn.Name(), "[") // a generic function's type arguments hold paths too
			name = name[strings.LastIndexByte(name, '/')+1:]
			r.pkg, r.fn, _ = strings.Cut(name, ".")
		}
	}
	return r.pkg
}

// names reports whether r's function is named for topic, the second part
// of a key: cli's "cli.bot.listening" is by custom among botMessages, so
// that printing it makes cli's bot messages, not all sixteen of its
// catalogs. Only an order: a key elsewhere in its package is found after.
func (r *registered) names(topic string) bool {
	r.pkgName()
	return topic != "" && strings.HasPrefix(strings.ToLower(r.fn), topic)
}

// Detect picks the language from HERMES_LANG, then the locale variables.
func Detect() Lang {
	for _, v := range []string{"HERMES_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return Parse(s)
		}
	}
	return EN
}

// Parse maps a locale name such as "zh_CN.UTF-8" or "zh-CN" to a Lang.
func Parse(s string) Lang {
	if strings.HasPrefix(strings.ToLower(s), "zh") {
		return ZH
	}
	return EN
}

// SetLang sets the language of T.
func SetLang(l Lang) {
	mu.Lock()
	current = l
	mu.Unlock()
}

// Current is the language T renders in.
func Current() Lang {
	mu.RLock()
	defer mu.RUnlock()
	return current
}

// T renders message key in the current language.
func T(key string, args ...any) string { return In(Current(), key, args...) }

// In renders message key in language l.
func In(l Lang, key string, args ...any) string {
	m, ok := lookup(key)
	if !ok {
		return key
	}
	format := m.EN
	switch {
	case l == ZH && m.ZH != "":
		format = m.ZH
	case m.EN1 != "" && countOf(args) == 1:
		format = m.EN1
	}
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// countOf is the first integer among args, -1 when there is none.
func countOf(args []any) int {
	for _, a := range args {
		switch n := a.(type) {
		case int:
			return n
		case int64:
			return int(n)
		}
	}
	return -1
}

// Error is an error whose text is a catalog message, rendered in the language
// current when it is printed. Err, if set, is the cause, kept for errors.Is.
type Error struct {
	Key  string
	Args []any
	Err  error
}

// Errorf returns an Error for message key.
func Errorf(key string, args ...any) *Error { return &Error{Key: key, Args: args} }

// Wrap returns an Error for message key whose cause is err.
func Wrap(err error, key string, args ...any) *Error { return &Error{Key: key, Args: args, Err: err} }

func (e *Error) Error() string { return T(e.Key, e.Args...) }
func (e *Error) Unwrap() error { return e.Err }

// Text is a message of the catalog and its arguments, rendered where it is
// shown: for a person in the current language (String), for the model in
// English (In(EN)), as the same words. An argument that is a Text, or a
// list of them, is rendered in the same language.
type Text struct {
	Key  string
	Args []any
}

// TextOf is message key with args, not yet rendered.
func TextOf(key string, args ...any) Text { return Text{Key: key, Args: args} }

// IsZero reports whether t holds no message.
func (t Text) IsZero() bool { return t.Key == "" }

// String renders t in the current language.
func (t Text) String() string { return t.In(Current()) }

// In renders t in language l.
func (t Text) In(l Lang) string {
	if t.IsZero() {
		return ""
	}
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		switch a := a.(type) {
		case Text:
			args[i] = a.In(l)
		case []Text:
			parts := make([]string, len(a))
			for j, p := range a {
				parts[j] = p.In(l)
			}
			sep := ", "
			if l == ZH {
				sep = "、"
			}
			args[i] = strings.Join(parts, sep)
		default:
			args[i] = a
		}
	}
	return In(l, t.Key, args...)
}
