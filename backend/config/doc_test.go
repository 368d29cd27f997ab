package config

import (
	"flag"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

var rewriteReference = flag.Bool("write", false, "rewrite the config reference in docs/config.md")

func TestDocs_EveryKeyDocumented(t *testing.T) {
	keys := map[string]bool{}
	layout(reflect.ValueOf(Default()), "").walk(func(n *node) {
		if n.key != "" {
			keys[n.key] = true
		}
		for _, s := range n.settings {
			keys[s.key] = true
		}
	})
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if d := allDocs()[k]; d.EN == "" || d.ZH == "" {
			t.Errorf("%s has no documentation in both languages: add it to baseDocs in doc.go", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(allDocs())) {
		if !keys[k] {
			t.Errorf("docs describes %s, which Config does not have", k)
		}
	}
}

// uncomment turns every "# key = value" line of a default file into a
// setting, leaving the prose and the example array tables alone.
var commentedSetting = regexp.MustCompile(`(?m)^# ([a-z_]+ = .*)$`)

func TestDefaultFile_LoadsAsTheDefaults(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		t.Run(string(lang), func(t *testing.T) {
			file := DefaultFile(lang)
			cfg, err := Load(writeConfig(t, string(file)))
			if err != nil {
				t.Fatalf("the default file does not load: %v\n%s", err, file)
			}
			if !reflect.DeepEqual(cfg, Default()) {
				t.Fatalf("the default file loads as %+v, not the defaults", cfg)
			}
			// With every key set to the value the file shows, the file must
			// still load, validate, and document the same values: the shown
			// defaults are the real ones.
			set := commentedSetting.ReplaceAllString(string(file), "$1")
			if set == string(file) {
				t.Fatal("no commented setting found")
			}
			cfg, err = Load(writeConfig(t, set))
			if err != nil {
				t.Fatalf("the uncommented default file does not load: %v\n%s", err, set)
			}
			if err := cfg.Validate(); err != nil {
				t.Fatalf("the uncommented default file does not validate: %v", err)
			}
			if got := shownValues(cfg); !reflect.DeepEqual(got, shownValues(Default())) {
				t.Fatalf("values differ after a round trip:\n%v\n%v", got, shownValues(Default()))
			}
			if lang == i18n.ZH && !strings.Contains(string(file), "智能体循环") {
				t.Fatal("the Chinese file has no Chinese comments")
			}
		})
	}
}

func shownValues(c Config) map[string]string {
	out := map[string]string{}
	layout(reflect.ValueOf(c), "").walk(func(n *node) {
		for _, s := range n.settings {
			if !n.array && !n.named {
				out[s.key] = s.shown()
			}
		}
	})
	return out
}

// TestReference_MatchesDocs keeps the table of settings in docs/config.md
// generated from docs; `go test ./backend/config -run Reference -write`
// rewrites it.
func TestReference_MatchesDocs(t *testing.T) {
	const begin, end = "<!-- config-reference:begin -->\n", "<!-- config-reference:end -->"
	path := "../../docs/config.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("docs/config.md lacks the %q … %q markers", begin, end)
	}
	want := "\n" + Reference(i18n.EN) + "\n"
	if page[i+len(begin):j] == want {
		return
	}
	if !*rewriteReference {
		t.Fatal("the config reference in docs/config.md is out of date: run go test ./backend/config -run Reference -write")
	}
	page = page[:i+len(begin)] + want + page[j:]
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
}
