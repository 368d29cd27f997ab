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
