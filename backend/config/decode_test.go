package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// TestWithoutComments: comments go, the text of strings stays (a "#" in
// one, a line starting with "#" in a multi-line one), line ends stay, and
// a comment TOML forbids is kept for the parser to refuse.
func TestWithoutComments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# only\n", "\n"},
		{"a = 1 # one\nb = 2\n", "a = 1 \nb = 2\n"},
		{"a = \"x # y\" # z\n", "a = \"x # y\" \n"},
		{"a = 'x # y'\n", "a = 'x # y'\n"},
		{"a = \"\"\"\n# not a comment\n\"\"\" # one\n", "a = \"\"\"\n# not a comment\n\"\"\" \n"},
		{"a = '''\n# not one\n''''' # one\n", "a = '''\n# not one\n''''' \n"},
		{"a = \"\\\"#\" # c\r\nb = 1\r\n", "a = \"\\\"#\" \r\nb = 1\r\n"},
		{"a = [ # one\n  1, # two\n]\n", "a = [ \n  1, \n]\n"},
		{"# bell \a\n", "# bell \a\n"},
		{"# bad \xff\n", "# bad \xff\n"},
		{"[t] # 表\n", "[t] \n"},
	} {
		if got := withoutComments(c.in); got != c.want {
			t.Errorf("withoutComments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDecode_TheDefaultFileParsesOnceWithoutItsComments: hermes.toml as
// config init writes it is nearly all comments; what the parser reads of it
// is a few lines, and decodes to the same config.
func TestDecode_TheDefaultFileParsesOnceWithoutItsComments(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		src := string(DefaultFile(lang))
		if stripped := withoutComments(src); len(stripped) > len(src)/10 {
			t.Fatalf("%s: the parser reads %d of %d bytes", lang, len(stripped), len(src))
		}
		var got, want Config
		if _, err := decode(src, &got); err != nil {
			t.Fatal(err)
		}
		if _, err := toml.Decode(src, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decoded without comments %+v, as written %+v", lang, got, want)
		}
	}
}

// TestLoad_ErrorsPlacedAsWritten: a mistake after long comments is placed
// at its line and column in the file as written.
func TestLoad_ErrorsPlacedAsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := strings.Repeat("# a comment line that the parser is not shown\n", 40) + "[model]\nmodel = \"m\" # fine\nbase_url = \"http://x\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "line 43, column 21") {
		t.Fatalf("Load = %v, want a syntax error at line 43", err)
	}
}

// FuzzWithoutComments: for any text, the parser decodes the text without
// its comments to what it decodes the text as written to, and refuses it
// when it refuses the text as written.
func FuzzWithoutComments(f *testing.F) {
	for _, seed := range []string{
		"a = 1 # c\n", "a = \"\"\"\n# x\n\"\"\"\n", "a = '''#'''\n", "a = \"#\\\"\" #\n", "[t] # \a\n",
		"a = [1, # c\n 2]\n", "a = \"x\n# y\n", "a = '''\n'''' # c\n", "a = {b = 1} # c\r\n", "#\xff\n",
		string(DefaultFile(i18n.EN)),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, _, deep := measureNesting(src); deep || len(src) > 1<<14 {
			return
		}
		var want, got map[string]any
		_, werr := toml.Decode(src, &want)
		_, gerr := toml.Decode(withoutComments(src), &got)
		switch {
		case werr != nil && gerr == nil:
			t.Fatalf("without comments %q parses, as written it does not: %v", withoutComments(src), werr)
		case werr == nil && gerr != nil:
			t.Fatalf("without comments %q does not parse: %v", withoutComments(src), gerr)
		case werr == nil && !reflect.DeepEqual(want, got):
			t.Fatalf("without comments %v, as written %v", got, want)
		}
	})
}
