package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

const (
	botCorpID = "ww0123456789abcdef"
	botSecret = "corp-secret-5f1e9d2c7b3a"
	botToken  = "callback-token-8c2d4e6f"
	botAESKey = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
)

// botOutput collects what `hermes bot` prints and hands over the line that
// says where it listens.
type botOutput struct {
	mu      sync.Mutex
	b       bytes.Buffer
	ready   chan string // gets the callback URL once; never reassigned
	told    bool
	changed chan struct{} // closed and replaced on every write
}

// waitFor waits until the output holds want, waking on each write.
func (o *botOutput) waitFor(ctx context.Context, want string) error {
	for {
		o.mu.Lock()
		if o.changed == nil {
			o.changed = make(chan struct{})
		}
		ok, changed := strings.Contains(o.b.String(), want), o.changed
		o.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %q: %w", want, ctx.Err())
		}
	}
}

var botURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/callback`)

func (o *botOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.b.Write(p)
	if o.changed != nil {
		close(o.changed)
		o.changed = nil
	}
	if u := botURL.FindString(o.b.String()); u != "" && o.ready != nil && !o.told {
		o.ready <- u
		o.told = true
	}
	return len(p), nil
}

func (o *botOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

func writeBotConfig(t *testing.T, home, modelURL, wecomURL, extra string) {
	t.Helper()
	cfg := fmt.Sprintf(`[model]
base_url = %q
model = "test-model"
api_key_env = "BOT_TEST_MODEL_KEY"

[bot]
platform = "wecom"
webhook_secret = %q
encoding_aes_key = %q
corp_id = %q
secret_env = "BOT_TEST_WECOM_SECRET"
agent_id = 1000002
api_base = %q
%s`, modelURL, botToken, botAESKey, botCorpID, wecomURL, extra)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

func botEnv(out, errOut *botOutput) *cli.Env {
	vars := map[string]string{"BOT_TEST_MODEL_KEY": "sk-bot-cli-test", "BOT_TEST_WECOM_SECRET": botSecret, "HERMES_LANG": "en"}
	return &cli.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}
}

func TestBot_ServesWeComCallbacksUntilCancelled(t *testing.T) {
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "hello from hermes"} })
	wecom := wecomtest.NewServer(t, botCorpID, botSecret, 0)
	home := t.TempDir()
	writeBotConfig(t, home, model.URL, wecom.URL, "")
	out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- cli.Main(ctx, botEnv(out, errOut), []string{"bot", "--home", home, "--listen", "127.0.0.1:0"})
	}()
	var url string
	select {
	case url = <-out.ready:
	case c := <-code:
		t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
	}

	cb, err := wecomtest.NewCallbacks(url, botToken, botAESKey, botCorpID)
	if err != nil {
		t.Fatal(err)
	}
	if status, _, err := cb.Text("zhangsan", "m1", "say hello"); err != nil || status != 200 {
		t.Fatalf("callback: %d %v", status, err)
	}
	wait, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	if err := wecom.WaitFor(wait, func(m map[string][]string) bool { return len(m["zhangsan"]) > 0 }); err != nil {
		t.Fatal(err)
	}
	if got := wecom.Messages("zhangsan"); got[0] != "hello from hermes" {
		t.Fatalf("zhangsan was sent %q", got)
	}

	// An edit applies without a restart: another model answers the next task.
	model2 := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "hello from the new model"} })
	writeBotConfig(t, home, model2.URL, wecom.URL, "")
	if err := errOut.waitFor(wait, "the next task uses the new settings"); err != nil {
		t.Fatalf("%v:\n%s", err, errOut)
	}
	if status, _, err := cb.Text("zhangsan", "m2", "say hello again"); err != nil || status != 200 {
		t.Fatalf("callback: %d %v", status, err)
	}
	if err := wecom.WaitFor(wait, func(m map[string][]string) bool { return len(m["zhangsan"]) > 1 }); err != nil {
		t.Fatal(err)
	}
	if got := wecom.Messages("zhangsan"); got[1] != "hello from the new model" {
		t.Fatalf("after the edit zhangsan was sent %q", got)
	}

	// An edit of what needs a restart says so.
	writeBotConfig(t, home, model2.URL, wecom.URL, "allow_tools = [\"write_file\"]\npath = \"/other\"\n")
	if err := errOut.waitFor(wait, "takes effect when hermes bot restarts"); err != nil {
		t.Fatalf("%v:\n%s", err, errOut)
	}
	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Fatalf("exit code %d after cancel:\n%s", c, errOut)
	}
	for _, secret := range []string{botSecret, botToken, botAESKey, "sk-bot-cli-test"} {
		if strings.Contains(out.String()+errOut.String(), secret) {
			t.Fatalf("hermes bot printed a secret:\n%s\n%s", out, errOut)
		}
	}
}

func TestBot_RefusesAnIncompleteConfig(t *testing.T) {
	cases := []struct {
		name, extra string
		vars        map[string]string
		want        string
	}{
		{"secret's variable unset", "", map[string]string{"BOT_TEST_MODEL_KEY": "k"}, "[bot] secret is not set"},
		{"unknown platform", `platform = "slack"`, nil, `platform is "slack"`},
		{"short AES key", `encoding_aes_key = "abc"`, nil, "has 3 characters but must have 43"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			writeBotConfig(t, home, "http://127.0.0.1:9/v1", "http://127.0.0.1:9", "")
			if tc.extra != "" {
				raw, _ := os.ReadFile(filepath.Join(home, "hermes.toml"))
				// A later key of the same name is a TOML error, so replace it.
				key := strings.SplitN(tc.extra, " ", 2)[0]
				re := regexp.MustCompile(`(?m)^` + key + ` = .*$`)
				if err := os.WriteFile(filepath.Join(home, "hermes.toml"), re.ReplaceAll(raw, []byte(tc.extra)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut := &botOutput{}, &botOutput{}
			env := botEnv(out, errOut)
			if tc.vars != nil {
				env.Getenv = func(k string) string { return tc.vars[k] }
			}
			if c := cli.Main(t.Context(), env, []string{"bot", "--home", home}); c != cli.ExitUsage {
				t.Fatalf("exit code %d, want %d:\n%s", c, cli.ExitUsage, errOut)
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Fatalf("stderr does not say %q:\n%s", tc.want, errOut)
			}
			if strings.Contains(errOut.String(), botAESKey) {
				t.Fatal("the error shows the AES key")
			}
		})
	}
}

// TestBot_RefusesArguments: an argument is refused before the home is
// touched, and `hermes bot status` is pointed at --cluster-status.
func TestBot_RefusesArguments(t *testing.T) {
	for args, want := range map[string]string{
		"status": "run `hermes bot --cluster-status`",
		"start":  "the settings are under [bot] in hermes.toml",
	} {
		home := filepath.Join(t.TempDir(), "home")
		out, errOut := &botOutput{}, &botOutput{}
		if c := cli.Main(t.Context(), botEnv(out, errOut), []string{"bot", "--home", home, args}); c != cli.ExitUsage {
			t.Fatalf("hermes bot %s: exit code %d, want %d:\n%s", args, c, cli.ExitUsage, errOut)
		}
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("hermes bot %s says\n%s\nwant %q", args, errOut, want)
		}
		if _, err := os.Stat(home); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("hermes bot %s made the home: %v", args, err)
		}
	}
}
