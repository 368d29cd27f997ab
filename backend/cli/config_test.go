package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// configEnv is an Env on a fresh home whose desktop records where it opened.
func configEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer, *string) {
	t.Helper()
	i18n.SetLang(i18n.EN)
	home := t.TempDir()
	var out, errOut bytes.Buffer
	opened := new(string)
	env := &Env{
		Stdout: &out, Stderr: &errOut,
		Getenv:  func(k string) string { return map[string]string{"HERMES_HOME": home}[k] },
		Desktop: func(w Window) error { *opened = w.Home; return nil },
	}
	return env, &out, &errOut, opened
}

func TestConfigCommand(t *testing.T) {
	env, out, errOut, _ := configEnv(t)
	home := env.Getenv("HERMES_HOME")
	path := config.Path(home)
	run := func(args ...string) int {
		out.Reset()
		errOut.Reset()
		return Main(t.Context(), env, append([]string{"config"}, args...))
	}

	if code := run("path"); code != ExitOK || strings.TrimSpace(out.String()) != path {
		t.Fatalf("config path: %d %q", code, out.String())
	}
	if code := run("init", "--lang", "zh-CN"); code != ExitOK || !strings.Contains(out.String(), path) {
		t.Fatalf("config init: %d %q %q", code, out.String(), errOut.String())
	}
	if b, _ := os.ReadFile(path); string(b) != string(config.DefaultFile(i18n.ZH)) {
		t.Fatal("config init --lang zh-CN did not write the Chinese default")
	}
	if code := run("init"); code != ExitFailed || !strings.Contains(errOut.String(), "--force") {
		t.Fatalf("config init over a file: %d %q", code, errOut.String())
	}
	if code := run("init", "--force"); code != ExitOK || !strings.Contains(out.String(), path+".bak") {
		t.Fatalf("config init --force: %d %q", code, out.String())
	}
	if code := run("check"); code != ExitOK || !strings.Contains(out.String(), "is valid") {
		t.Fatalf("config check of the default: %d %q %q", code, out.String(), errOut.String())
	}

	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[agent]\nmax_iteratons = 3\n[model]\nmax_retries = -2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run("check", bad); code != ExitFailed {
		t.Fatalf("config check of a bad file: %d", code)
	}
	for _, want := range []string{"line 2, column 1", "did you mean max_iterations?", "line 4, column 1", "[model] max_retries is -2", "2 problems; fix them"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("config check output lacks %q:\n%s", want, errOut.String())
		}
	}

	if err := os.WriteFile(path, []byte("[model]\napi_key = \"sk-live-secret\"\nmodel = \"qwen-plus\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := run("show"); code != ExitOK || strings.Contains(out.String(), "sk-live-secret") ||
		!strings.Contains(out.String(), `model = "qwen-plus"`) || !strings.Contains(out.String(), "max_iterations = 25") {
		t.Fatalf("config show: %d\n%s%s", code, out.String(), errOut.String())
	}

	if code := run("frobnicate"); code != ExitUsage {
		t.Fatalf("an unknown subcommand: %d", code)
	}
}

func TestStartBare_FollowsMode(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		code     int
		desktop  bool
		inStdout string
		inStderr string
	}{
		{"no config opens the window", "", ExitOK, true, "", ""},
		{"desktop", "[agent]\nmode = \"desktop\"\n", ExitOK, true, "", ""},
		{"cli lists the commands", "[agent]\nmode = \"cli\"\n", ExitOK, false, "hermes config", ""},
		{"an unknown mode", "[agent]\nmode = \"server\"\n", ExitUsage, false, "", `mode is "server"`},
		{"a broken config", "[agent\n", ExitUsage, false, "", "correct the TOML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, out, errOut, opened := configEnv(t)
			home := env.Getenv("HERMES_HOME")
			if tt.config != "" {
				if err := os.WriteFile(config.Path(home), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code := startBare(context.Background(), env, "")
			if code != tt.code || (*opened == home) != tt.desktop ||
				!strings.Contains(out.String(), tt.inStdout) || !strings.Contains(errOut.String(), tt.inStderr) {
				t.Fatalf("code %d, desktop %q, stdout %q, stderr %q", code, *opened, out.String(), errOut.String())
			}
		})
	}
}

func TestStartBare_BotMode(t *testing.T) {
	env, _, _, opened := configEnv(t)
	home := env.Getenv("HERMES_HOME")
	if err := os.WriteFile(config.Path(home), []byte("[agent]\nmode = \"bot\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	saved := registered
	t.Cleanup(func() { registered = saved })
	registered = append([]command{{"bot", "cli.cmd.config", func(_ context.Context, _ *Env, args []string) int {
		got = args
		return ExitOK
	}}}, saved...)
	if code := startBare(t.Context(), env, ""); code != ExitOK || *opened != "" || strings.Join(got, " ") != "--home "+home {
		t.Fatalf("code %d, desktop %q, bot args %q", code, *opened, got)
	}
}

// A Feishu bot without an Encrypt Key takes events unsigned: config check
// passes it but warns, in the language of the reader, and says what to set.
func TestConfigCheck_WarnsOfUnsignedFeishu(t *testing.T) {
	const feishu = "[bot]\nplatform = \"feishu\"\napp_id = \"cli_a1\"\napp_secret = \"s\"\nverification_token = \"v\"\n"
	tests := []struct {
		name, config string
		vars         map[string]string
		lang         i18n.Lang
		want         string // in the warning; "" for none
	}{
		{"no encrypt_key", feishu, nil, i18n.EN, "anyone who learns the verification token"},
		{"no encrypt_key, in Chinese", feishu, nil, i18n.ZH, "任何得知 Verification Token 的人"},
		{"encrypt_key_env names an unset variable", feishu + "encrypt_key_env = \"FEISHU_KEY\"\n", nil, i18n.EN, "Set an Encrypt Key"},
		{"encrypt_key_env set", feishu + "encrypt_key_env = \"FEISHU_KEY\"\n", map[string]string{"FEISHU_KEY": "k"}, i18n.EN, ""},
		{"encrypt_key", feishu + "encrypt_key = \"k\"\n", nil, i18n.EN, ""},
		{"another platform", "[bot]\nplatform = \"webhook\"\n", nil, i18n.EN, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, out, errOut, _ := configEnv(t)
			i18n.SetLang(tt.lang)
			t.Cleanup(func() { i18n.SetLang(i18n.EN) })
			env.Getenv = func(k string) string { return tt.vars[k] }
			path := filepath.Join(t.TempDir(), "hermes.toml")
			if err := os.WriteFile(path, []byte(tt.config), 0o600); err != nil {
				t.Fatal(err)
			}
			if code := Main(t.Context(), env, []string{"config", "check", path}); code != ExitOK || !strings.Contains(out.String(), path) {
				t.Fatalf("config check: %d %q %q", code, out.String(), errOut.String())
			}
			switch {
			case tt.want == "" && errOut.Len() > 0:
				t.Errorf("config check warned: %q", errOut.String())
			case tt.want != "" && (!strings.Contains(errOut.String(), tt.want) || !strings.Contains(errOut.String(), "encrypt_key")):
				t.Errorf("config check's warning %q lacks %q and encrypt_key", errOut.String(), tt.want)
			}
		})
	}
}

// TestConfigCheck_ClusterCredentials: config check refuses replicas that
// would reach NATS on another machine without a token or credentials, at
// the line of nats_url, unless insecure = true, and warns of NATS without
// them on this machine and of insecure = true.
func TestConfigCheck_ClusterCredentials(t *testing.T) {
	tests := []struct {
		name, cluster string
		vars          map[string]string
		code          int
		want          string // on stderr; "" for nothing
	}{
		{"elsewhere", "nats_url = \"nats://10.0.0.5:4222\"\n", nil, ExitFailed, "line 2, column 1: [cluster] nats_url names NATS servers on other machines (10.0.0.5:4222) without a token or credentials"},
		{"elsewhere, an unset variable", "nats_url = \"nats://10.0.0.5:4222\"\nnats_token_env = \"NATS_TOKEN\"\n", nil, ExitOK, "warning: [cluster] names the variable NATS_TOKEN for the NATS credentials, but it is not set"},
		{"elsewhere, insecure", "nats_url = \"nats://10.0.0.5:4222\"\ninsecure = true\n", nil, ExitOK, "warning: [cluster] insecure = true: the replicas reach 10.0.0.5:4222 without a token or credentials"},
		{"here", "nats_url = \"nats://127.0.0.1:4222\"\n", nil, ExitOK, "warning: [cluster] nats_url names a NATS server on this machine without a token or credentials"},
		{"elsewhere, a token", "nats_url = \"nats://10.0.0.5:4222\"\nnats_token_env = \"NATS_TOKEN\"\n", map[string]string{"NATS_TOKEN": "t"}, ExitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, out, errOut, _ := configEnv(t)
			env.Getenv = func(k string) string { return tt.vars[k] }
			path := filepath.Join(t.TempDir(), "hermes.toml")
			if err := os.WriteFile(path, []byte("[cluster]\n"+tt.cluster), 0o600); err != nil {
				t.Fatal(err)
			}
			code := Main(t.Context(), env, []string{"config", "check", path})
			if code != tt.code || (tt.want == "") != (errOut.Len() == 0) || !strings.Contains(errOut.String(), tt.want) {
				t.Fatalf("config check: %d %q %q; want %d and %q", code, out.String(), errOut.String(), tt.code, tt.want)
			}
		})
	}
}
