package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestCheck_ReportsEveryProblemWithItsLine(t *testing.T) {
	i18n.SetLang(i18n.EN)
	path := writeConfig(t, `[agent]
mode = "server"
max_iterations = "many"
max_iteratons = 4
workspace = "C:\temp"

[model]
max_retries = -1
api_key_env = "sk-abc123"
`)
	problems := Check(path)
	want := []struct {
		is   error
		text string
	}{
		{ErrWrongType, "line 3, column 1: [agent] max_iterations must be an integer"},
		{ErrUnknownKey, "line 4, column 1: unknown key [agent] max_iteratons; did you mean max_iterations?"},
		{ErrEscapedPath, "line 5, column 13: [agent] workspace"},
		{ErrInvalid, `line 2, column 1: [agent] mode is "server"`},
		{ErrInvalid, "line 8, column 1: [model] max_retries is -1"},
		{ErrInvalid, "line 9, column 1: [model] api_key_env must be the name of an environment variable"},
	}
	if len(problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(problems), len(want), errors.Join(problems...))
	}
	for i, w := range want {
		if !errors.Is(problems[i], w.is) || !strings.Contains(problems[i].Error(), w.text) || !strings.Contains(problems[i].Error(), path) {
			t.Errorf("problem %d = %v, want %v saying %q", i, problems[i], w.is, w.text)
		}
	}
}

func TestCheck(t *testing.T) {
	i18n.SetLang(i18n.EN)
	if p := Check(writeConfig(t, string(DefaultFile(i18n.EN)))); p != nil {
		t.Errorf("the default file has problems: %v", p)
	}
	p := Check(writeConfig(t, "[agent\n"))
	if len(p) != 1 || !errors.Is(p[0], ErrSyntax) {
		t.Errorf("a syntax error gives %v, want that one problem", p)
	}
	missing := filepath.Join(t.TempDir(), "hermes.toml")
	if p := Check(missing); len(p) != 1 || !errors.Is(p[0], os.ErrNotExist) || !strings.Contains(p[0].Error(), "hermes config init") {
		t.Errorf("a missing file gives %v", p)
	}
}

// TestCheckLoad: what Check finds and what Load gives, from one reading: a
// missing file is a problem and the defaults; a value out of range is a
// problem of a file that loads; a syntax error loads nothing.
func TestCheckLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		path         string
		loaded       bool
		problems     int
		wantDefaults bool
	}{
		{filepath.Join(dir, "missing.toml"), true, 1, true},
		{write("range.toml", "[agent]\nmax_iterations = -1\n"), true, 1, false},
		{write("syntax.toml", "[agent\n"), false, 1, false},
		{write("good.toml", "[agent]\nmax_iterations = 7\n"), true, 0, false},
	} {
		cfg, loaded, problems := CheckLoad(c.path)
		want, wantErr := Load(c.path)
		if loaded != c.loaded || loaded != (wantErr == nil) || len(problems) != c.problems || len(Check(c.path)) != c.problems {
			t.Errorf("%s: loaded %v, problems %v; Load gave %v", filepath.Base(c.path), loaded, problems, wantErr)
		}
		if !reflect.DeepEqual(cfg, want) || c.wantDefaults && !reflect.DeepEqual(cfg, Default()) {
			t.Errorf("%s: CheckLoad's config differs from Load's", filepath.Base(c.path))
		}
	}
}
