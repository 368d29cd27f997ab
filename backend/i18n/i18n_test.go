package i18n

import (
	"errors"
	"io/fs"
	"testing"
)

func TestIn(t *testing.T) {
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
	Register(map[string]Msg{"test.wrap": {EN: "cannot open %s", ZH: "无法打开 %s"}})
	err := Wrap(fs.ErrNotExist, "test.wrap", "x")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Wrap lost its cause")
	}
	if err.Error() == "test.wrap" {
		t.Fatal("message not rendered")
	}
}
