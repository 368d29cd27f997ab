package config

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// deepInline is the file of the report: x = {a={a=…}} n deep.
func deepInline(n int) string {
	return "x = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n"
}

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLoad_RefusesDeepNesting: a file that nests past any config is refused
// at the place it goes over, before the parser runs, so it costs what
// reading it does (the report's 16 KB file took 1 GB and 7.5 s to parse).
func TestLoad_RefusesDeepNesting(t *testing.T) {
	i18n.SetLang(i18n.EN)
	tests := []struct {
		name, src, place string
	}{
		{"inline tables", deepInline(4000), "line 1, column 99"},
		{"arrays", "x = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n", "line 1, column 36"},
		{"a dotted key", strings.Repeat("a.", 8000) + "a = 1\n", "line 1, column 65"},
		{"a table header", "# deep\n[" + strings.Repeat("a.", 8000) + "a]\n", "line 2, column 66"},
		{"arrays of inline tables", "[t]\nx = " + strings.Repeat("[{a=", 4000) + "1" + strings.Repeat("}]", 4000) + "\n", "line 2, column 65"},
		{"many keys, each not too deep", strings.Repeat("x = "+strings.Repeat("{a=", 30)+"1"+strings.Repeat("}", 30)+"\n", 200), "line 34, column 18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.src)
			var err error
			bytes := allocated(func() { _, err = Load(path) })
			if !errors.Is(err, ErrTooDeep) || !strings.Contains(err.Error(), tt.place) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Load: %v; want ErrTooDeep at %s", err, tt.place)
			}
			if limit := uint64(len(tt.src))*3 + 1<<20; bytes > limit {
				t.Fatalf("Load allocated %d KB for a %d KB file", bytes>>10, len(tt.src)>>10)
			}
			// Migrate, which runs first on start, leaves it alone too.
			bytes = allocated(func() {
				if up, err := Migrate(path); err != nil || up.Backup != "" {
					t.Errorf("Migrate: %+v, %v", up, err)
				}
			})
			if limit := uint64(len(tt.src))*3 + 1<<20; bytes > limit {
				t.Fatalf("Migrate allocated %d KB for a %d KB file", bytes>>10, len(tt.src)>>10)
			}
			if problems := Check(path); len(problems) != 1 || !errors.Is(problems[0], ErrTooDeep) {
				t.Fatalf("Check: %v", problems)
			}
		})
	}

	i18n.SetLang(i18n.ZH)
	defer i18n.SetLang(i18n.EN)
	_, err := Load(writeConfig(t, deepInline(4000)))
	if msg := err.Error(); !strings.Contains(msg, "第 1 行第 99 列") || !strings.Contains(msg, "嵌套超过 32 层") {
		t.Fatalf("in Chinese: %s", msg)
	}
}

// TestLoad_RefusesTooLarge: a file larger than any config is neither read
// whole nor parsed.
func TestLoad_RefusesTooLarge(t *testing.T) {
	i18n.SetLang(i18n.EN)
	path := writeConfig(t, strings.Repeat("# a comment line that fills the file\n", maxFileSize/36))
	_, err := Load(path)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "1024 KB") || !strings.Contains(err.Error(), "hermes config init") {
		t.Fatalf("Load: %v", err)
	}
	if _, err := Migrate(path); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Migrate: %v", err)
	}
}

// TestMeasureNesting: what counts as a level and what does not (strings,
// comments, headers), and that nothing real comes near the bounds.
func TestMeasureNesting(t *testing.T) {
	over := strings.Repeat("{a=", maxNesting) // with x, one level too deep
	tests := []struct {
		name   string
		src    string
		levels int
		deep   bool
	}{
		{"flat keys", "a = 1\nb = 'x'\n", 2, false},
		{"a header's keys are under it", "[a.b]\nc = 1\n[[d]]\ne = 2\n", 1 + 2 + 3 + 1 + 2, false},
		{"dotted and quoted keys", "a.\"b.c\".'d' = 1\n", 1 + 2 + 3, false},
		{"inline tables and arrays", "x = {a = [1, {b = 2}], c = {d = 3}}\n", 1 + 2 + 4 + 2 + 3, false},
		{"a multi-line array", "x = [\n  {a = 1},\n  {a = 2}, # {{{\n]\ny = 1\n", 1 + 3 + 3 + 1, false},
		{"floats and dates are values", "x = 1.5\nt = 1979-05-27T07:32:00.999Z\n", 2, false},
		{"too deep", "x = " + over + "1" + strings.Repeat("}", maxNesting) + "\n", 0, true},
		{"arrays too deep", "x = " + strings.Repeat("[", maxNesting) + "]\n", 0, true},
		{"as deep as allowed", "x = " + strings.Repeat("[", maxNesting-1) + strings.Repeat("]", maxNesting-1) + "\n", 1, false},
		{"brackets in a basic string", `x = "{{[[\"{{{{` + strings.Repeat("{", 40) + "\"\n", 1, false},
		{"brackets in a literal string", "x = '" + strings.Repeat("[", 40) + "\\'\ny = 1\n", 2, false},
		{"brackets in a multi-line basic string", "x = \"\"\"\n" + strings.Repeat("{", 40) + "\\\"\"\"\n\"\"\"\"\"\ny = 1\n", 2, false},
		{"brackets in a multi-line literal string", "x = '''\n" + strings.Repeat("[", 40) + "\n'''''\ny = 1\n", 2, false},
		{"brackets in a comment", "x = 1 # " + strings.Repeat("{", 40) + "\n# " + over + "\n", 1, false},
		{"brackets in a quoted key", `"` + over + `" = 1` + "\n", 1, false},
		{"a stray quote ends with its line", "x = \"" + strings.Repeat("{", 40) + "\ny = " + over + "1\n", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, levels, deep := measureNesting(tt.src)
			if deep != tt.deep || (!tt.deep && levels != tt.levels) {
				t.Fatalf("levels %d, deep %v; want %d, %v", levels, deep, tt.levels, tt.deep)
			}
			var v map[string]any
			if _, err := toml.Decode(tt.src, &v); !tt.deep && err != nil {
				t.Fatalf("not TOML, so not a case the parser would take: %v", err)
			}
		})
	}
	every, err := toml.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, real := range []string{string(DefaultFile(i18n.EN)), string(DefaultFile(i18n.ZH)), string(every)} {
		if _, levels, deep := measureNesting(real); deep || levels > maxKeyLevels/50 {
			t.Fatalf("a real config has %d key levels:\n%s", levels, real)
		}
	}
}

// TestWatch_KeepsLastGoodOverDeepEdit: an edit that nests too deep is
// told at once, with its place, and the last good config stays in force;
// the next good edit is applied.
func TestWatch_KeepsLastGoodOverDeepEdit(t *testing.T) {
	i18n.SetLang(i18n.EN)
	w := startWatch(t, "[agent]\nmax_iterations = 10\n")
	if err := os.WriteFile(w.path, []byte("[agent]\nmax_iterations = 11\n"+deepInline(8000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w.failure(t); !errors.Is(err, ErrTooDeep) || !strings.Contains(err.Error(), "line 3, column 96") {
		t.Fatalf("deep edit reported as %v", err)
	}
	if err := os.WriteFile(w.path, []byte("[agent]\nmax_iterations = 12\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := w.change(t); c.Agent.MaxIterations != 12 {
		t.Fatalf("max_iterations = %d after the fix", c.Agent.MaxIterations)
	}
}

// FuzzMeasureNesting: the scan never fails on any text, and a text the
// parser takes nests no deeper than the scan let through: each key part or
// array it counts is one level of the parsed tree, and an array of tables
// in a header one more.
func FuzzMeasureNesting(f *testing.F) {
	for _, seed := range []string{
		"a = 1\n", "[a.b]\nc = {d = [1, {e = 2}]}\n", "[[a]]\n[[a.b]]\nc = 1\n",
		"x = \"\"\"\n{{\\\"\"\"\"\"\n", "x = '''[[['''''\n", "'a'.\"b\" = [[[]]]\n",
		"x = {a = {b = {c = 1}}} # {{{\n", deepInline(40),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _, deep := measureNesting(src)
		var tree map[string]any
		if deep || len(src) > 1<<12 {
			return
		}
		if _, err := toml.Decode(src, &tree); err != nil {
			return
		}
		if d := treeDepth(tree); d > 2*maxNesting+1 {
			t.Fatalf("the scan let through a tree %d deep", d)
		}
	})
}

// treeDepth is how many tables and arrays a parsed value nests.
func treeDepth(v any) int {
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			deepest = max(deepest, treeDepth(e))
		}
	case []map[string]any:
		for _, e := range v {
			deepest = max(deepest, treeDepth(e))
		}
	case []any:
		for _, e := range v {
			deepest = max(deepest, treeDepth(e))
		}
	default:
		return 0
	}
	return deepest + 1
}
