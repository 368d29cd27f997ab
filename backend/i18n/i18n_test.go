package i18n

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
)

// isolate keeps the test's messages to itself: the catalog and the
// pending registrations are put back as they were when it ends, so that it
// registers its keys again when run again (go test -count).
func isolate(t *testing.T) {
	mu.Lock()
	savedCatalog, savedPending := maps.Clone(catalog), slices.Clone(pending)
	mu.Unlock()
	t.Cleanup(func() {
		mu.Lock()
		catalog, pending = savedCatalog, savedPending
		mu.Unlock()
	})
}

func TestIn(t *testing.T) {
	isolate(t)
	Register(map[string]Msg{"test.greet": {EN: "hello %s", ZH: "你好 %s"}})
	cases := []struct {
		lang Lang
		want string
	}{{EN, "hello Ada"}, {ZH, "你好 Ada"}}
	for _, c := range cases {
		if got := In(c.lang, "test.greet", "Ada"); got != c.want {
			t.Errorf("In(%s) = %q, want %q", c.lang, got, c.want)
		}
	}
	if got := In(ZH, "test.missing"); got != "test.missing" {
		t.Errorf("missing key rendered as %q", got)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{"zh_CN.UTF-8": ZH, "zh-CN": ZH, "en_US.UTF-8": EN, "C": EN} {
		if got := Parse(in); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestErrorUnwraps(t *testing.T) {
	isolate(t)
	Register(map[string]Msg{"test.wrap": {EN: "cannot open %s", ZH: "无法打开 %s"}})
	err := Wrap(fs.ErrNotExist, "test.wrap", "x")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Wrap lost its cause")
	}
	if err.Error() == "test.wrap" {
		t.Fatal("message not rendered")
	}
}

// MessageIn renders the errors and Texts among an error's arguments in the
// language asked, not the current one.
func TestMessageIn_RendersArgumentsInItsLanguage(t *testing.T) {
	isolate(t)
	Register(map[string]Msg{
		"test.outer": {EN: "cannot go on: %s (%s)", ZH: "无法继续：%s（%s）"},
		"test.inner": {EN: "no vault", ZH: "没有笔记库"},
	})
	err := Errorf("test.outer", TextOf("test.inner"), Errorf("test.inner"))
	if got := MessageIn(ZH, err); got != "无法继续：没有笔记库（没有笔记库）" {
		t.Errorf("MessageIn(ZH) = %q", got)
	}
	if got := MessageIn(EN, err); got != "cannot go on: no vault (no vault)" {
		t.Errorf("MessageIn(EN) = %q", got)
	}
}

// TestRegister_BuiltAtFirstLookup: a package's messages are made when a
// message is first looked up, not when they are registered, and a key
// registered twice panics when the second package's are made.
func TestRegister_BuiltAtFirstLookup(t *testing.T) {
	isolate(t)
	made := 0
	Register(func() map[string]Msg {
		made++
		return map[string]Msg{"test.lazy": {EN: "lazy %d", ZH: "懒 %d"}}
	})
	if made != 0 {
		t.Fatal("the messages were made when registered")
	}
	if got := In(ZH, "test.lazy", 1); got != "懒 1" || made != 1 {
		t.Fatalf("In = %q after %d makings", got, made)
	}
	In(EN, "test.lazy", 2)
	if made != 1 {
		t.Fatalf("the messages were made %d times", made)
	}
	Register(func() map[string]Msg { return map[string]Msg{"test.lazy": {EN: "again"}} })
	defer func() {
		if recover() == nil {
			t.Fatal("a key registered twice did not panic")
		}
	}()
	T("test.not_registered") // makes every package's messages
}

// Packages' messages are made the last registered first, and only until the
// key looked up is found: those of a package no message was asked of stay
// unmade.
func TestLookup_MakesOnlyWhatItNeeds(t *testing.T) {
	isolate(t)
	var made []string
	for _, name := range []string{"test.first", "test.second", "test.third"} {
		Register(func() map[string]Msg {
			made = append(made, name)
			return map[string]Msg{name: {EN: name}}
		})
	}
	if got := T("test.second"); got != "test.second" || len(made) != 2 || made[0] != "test.third" {
		t.Fatalf("T = %q after making %q", got, made)
	}
	if T("test.third"); len(made) != 2 {
		t.Fatalf("made again: %q", made)
	}
	if got := T("test.first"); got != "test.first" || len(made) != 3 {
		t.Fatalf("T = %q after making %q", got, made)
	}
}

// pendingOf returns add, which registers the messages of pkg, one key,
// recording in made when they are made; they are gone after the test. pkg
// may name the function that makes them too ("cli.botMessages").
func pendingOf(t *testing.T, made *[]string) (add func(pkg, key string)) {
	isolate(t)
	return func(pkg, key string) {
		mu.Lock()
		defer mu.Unlock()
		pkg, fn, _ := strings.Cut(pkg, ".")
		pending = append(pending, registered{pkg: pkg, fn: fn, make: func() map[string]Msg {
			*made = append(*made, key)
			return map[string]Msg{key: {EN: key}}
		}})
	}
}

// A key is looked up first among the messages of the package its first
// part names, so a package's message made late in a process (skills' in a
// listing) makes none of the packages registered after it; a key of no
// package's name falls back to the last registered first.
func TestLookup_KeysPackageFirst(t *testing.T) {
	var made []string
	add := pendingOf(t, &made)
	add("alpha", "alpha.one")
	add("beta", "other.one")
	add("gamma", "gamma.one")
	if got := T("alpha.one"); got != "alpha.one" || !slices.Equal(made, []string{"alpha.one"}) {
		t.Fatalf("T = %q after making %q", got, made)
	}
	if got := T("other.one"); got != "other.one" || !slices.Equal(made, []string{"alpha.one", "gamma.one", "other.one"}) {
		t.Fatalf("T = %q after making %q", got, made)
	}
}

// Within its package, a key is looked up first in the catalog named for
// its second part, so printing one of cli's bot messages makes no other
// catalog of cli's; a key of another part falls back to the package's
// last registered first.
func TestLookup_KeysCatalogFirst(t *testing.T) {
	var made []string
	add := pendingOf(t, &made)
	add("cli.botMessages", "cli.bot.one")
	add("cli.serveMessages", "cli.serve.one")
	add("cli.cliMessages", "cli.flag.one")
	if got := T("cli.bot.one"); got != "cli.bot.one" || !slices.Equal(made, []string{"cli.bot.one"}) {
		t.Fatalf("T = %q after making %q", got, made)
	}
	if got := T("cli.flag.one"); got != "cli.flag.one" || !slices.Equal(made, []string{"cli.bot.one", "cli.flag.one"}) {
		t.Fatalf("T = %q after making %q", got, made)
	}
}

// The keys a renamed package kept (the tool registry's skills.*) are
// looked up first among its messages, as its own.
func TestLookup_KeptKeysPackageFirst(t *testing.T) {
	var made []string
	add := pendingOf(t, &made)
	add("toolbox", "skills.one")
	add("later", "later.one")
	if got := T("skills.one"); got != "skills.one" || !slices.Equal(made, []string{"skills.one"}) {
		t.Fatalf("T = %q after making %q", got, made)
	}
}

func packageMessages() map[string]Msg { return nil }

// The package of registered messages is that of the function that makes
// them, a named one or a closure, or Register's own for a map.
func TestRegistered_PkgName(t *testing.T) {
	for _, r := range []registered{{make: packageMessages}, {make: func() map[string]Msg { return nil }}} {
		if got := r.pkgName(); got != "i18n" {
			t.Errorf("pkgName = %q, want i18n", got)
		}
	}
	isolate(t)
	Register(map[string]Msg{})
	mu.Lock()
	r := pending[len(pending)-1]
	pending = pending[:len(pending)-1]
	mu.Unlock()
	if got := r.pkgName(); got != "i18n" {
		t.Errorf("pkgName of a map's = %q, want i18n", got)
	}
}

// A Text is rendered when shown, in the language asked, its Text arguments
// with it.
func TestText(t *testing.T) {
	isolate(t)
	Register(map[string]Msg{
		"test.text.outer": {EN: "%s, then %s", ZH: "%s，然后%s"},
		"test.text.inner": {EN: "rule %d", ZH: "规则 %d"},
	})
	txt := TextOf("test.text.outer", TextOf("test.text.inner", 3), []Text{TextOf("test.text.inner", 4), TextOf("test.text.inner", 5)})
	if got := txt.In(EN); got != "rule 3, then rule 4, rule 5" {
		t.Errorf("In(EN) = %q", got)
	}
	if got := txt.In(ZH); got != "规则 3，然后规则 4、规则 5" {
		t.Errorf("In(ZH) = %q", got)
	}
	if !(Text{}).IsZero() || (Text{}).String() != "" || txt.IsZero() {
		t.Error("IsZero")
	}
}

// A count of one takes the message's singular in English; Chinese has one
// form; a message without a singular, or a count other than one, is as it
// is.
func TestIn_SingularForACountOfOne(t *testing.T) {
	msgs := map[string]Msg{
		"demo.checked": {EN: "%d tools checked in %s", ZH: "已检查 %d 个工具（%s）", EN1: "%d tool checked in %s"},
		"demo.plain":   {EN: "%d tools", ZH: "%d 个工具"},
	}
	isolate(t)
	Register(msgs)
	for _, c := range []struct {
		lang Lang
		key  string
		args []any
		want string
	}{
		{EN, "demo.checked", []any{1, "skills"}, "1 tool checked in skills"},
		{EN, "demo.checked", []any{int64(1), "skills"}, "1 tool checked in skills"},
		{EN, "demo.checked", []any{2, "skills"}, "2 tools checked in skills"},
		{EN, "demo.checked", []any{0, "skills"}, "0 tools checked in skills"},
		{ZH, "demo.checked", []any{1, "skills"}, "已检查 1 个工具（skills）"},
		{EN, "demo.plain", []any{1}, "1 tools"},
	} {
		if got := In(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("In(%s, %s, %v) = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
}
