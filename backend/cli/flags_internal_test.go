package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// TestFlags_HelpRendered: a flag's help is the key of its message until
// the help is printed; printed, every command's is the message, in both
// languages, no key is left as it was written, and it starts with the
// command's usage line in that language.
func TestFlags_HelpRendered(t *testing.T) {
	defer i18n.SetLang(i18n.Current())
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		i18n.SetLang(lang)
		for _, args := range [][]string{
			{"run"}, {"resume"}, {"runs"}, {"runs", "show"}, {"runs", "label"}, {"serve"}, {"bot"}, {"config", "check"},
			{"config", "init"}, {"doctor"}, {"eval", "add"}, {"eval", "list"}, {"eval", "run"}, {"eval", "show"},
			{"memory", "list"}, {"pin"}, {"release", "keygen"}, {"release", "sign"}, {"tools", "list"}, {"tools", "call"},
			{"skills", "list"}, {"update"}, {"worker"}, {"--new-window"},
		} {
			var stderr bytes.Buffer
			env := &Env{Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
			Main(context.Background(), env, append(args, "-h"))
			if strings.Contains(stderr.String(), "cli.") {
				t.Errorf("%s: hermes %s -h left a key unrendered:\n%s", lang, strings.Join(args, " "), stderr.String())
			}
			first, _, _ := strings.Cut(stderr.String(), "\n")
			if want := map[i18n.Lang]string{i18n.EN: "usage: hermes", i18n.ZH: "用法：hermes"}[lang]; !strings.HasPrefix(strings.ToLower(first), want) {
				t.Errorf("%s: hermes %s -h starts %q, not %q", lang, strings.Join(args, " "), first, want)
			}
		}
	}
}

// TestFlags_MistakesInTheUsersLanguage: a mistake in a flag is told in the
// user's language, not the flag package's English, then the usage.
func TestFlags_MistakesInTheUsersLanguage(t *testing.T) {
	defer i18n.SetLang(i18n.Current())
	cases := []struct {
		args   []string
		en, zh string
	}{
		{[]string{"run", "--bogus", "x"}, "unknown flag --bogus", "未知参数 --bogus"},
		{[]string{"run", "--max-iterations", "abc", "x"}, `invalid value "abc" for --max-iterations`, `参数 --max-iterations 的值 "abc" 无效`},
		{[]string{"runs", "--json=maybe"}, `invalid value "maybe" for --json`, `参数 --json 的值 "maybe" 无效`},
		{[]string{"serve", "--listen"}, "flag --listen needs a value", "参数 --listen 需要一个值"},
		{[]string{"--home"}, "flag --home needs a value", "参数 --home 需要一个值"},
		{[]string{"tools", "list", "---x"}, "bad flag syntax: ---x", "参数写法有误：---x"},
	}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		i18n.SetLang(lang)
		for _, c := range cases {
			var stderr bytes.Buffer
			env := &Env{Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
			code := Main(context.Background(), env, c.args)
			lines := strings.SplitN(stderr.String(), "\n", 3)
			want := map[i18n.Lang]string{i18n.EN: c.en, i18n.ZH: c.zh}[lang]
			if code != ExitUsage || len(lines) < 2 || !strings.HasPrefix(lines[0], want) || !strings.Contains(strings.ToLower(lines[1]), map[i18n.Lang]string{i18n.EN: "usage:", i18n.ZH: "用法："}[lang]) {
				t.Errorf("%s: hermes %s: exit %d\n%s", lang, strings.Join(c.args, " "), code, stderr.String())
			}
		}
	}
}
