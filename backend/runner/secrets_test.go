package runner_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/longterm"
	_ "hermes/backend/platforms" // WeCom's keys of [bot] are WeCom's, as in hermes
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// The secrets of secretsHome: in hermes.toml, and in the environment that
// its *_env references and OPENAI_API_KEY name.
const (
	modelKey      = "sk-configured-key-0123456789"
	webhookSecret = "whsec-webhook-secret-4242"
	aesKey        = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG" // 43 characters
	corpSecret    = "corp-secret-from-the-env-77"
	githubToken   = "ghp_github-token-in-an-env-table"
	endpointKey   = "sk-endpoint-entry-key-9876"
)

var allSecrets = []string{modelKey, webhookSecret, aesKey, corpSecret, githubToken, endpointKey}

// secretsHome is a home whose model is srv and whose hermes.toml holds a
// secret in every place one can be; extra is appended to the file.
func secretsHome(t *testing.T, srv *llmtest.Server, extra string) (*runner.Manager, string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(wsOf(home), 0o700); err != nil {
		t.Fatal(err)
	}
	toml := `agent = { strategy = "react", route = false }
[model]
base_url = "` + srv.URL + `"
model = "m"
api_key_env = "TEST_MODEL_KEY"

[[tools.mcp]]
name = "gh"
command = "gh-mcp"
env = { GITHUB_TOKEN = "` + githubToken + `", LOG_LEVEL = "warn" }

[bot]
webhook_secret = "` + webhookSecret + `"
encoding_aes_key = "` + aesKey + `"
secret_env = "TEST_CORP_SECRET"
` + extra
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TEST_MODEL_KEY": modelKey, "TEST_CORP_SECRET": corpSecret, "TEST_ENDPOINT_KEY": endpointKey}
	return runner.New(runner.Options{Home: home, Workspace: wsOf(home), Getenv: func(k string) string { return env[k] }}), home
}

// wsOf is the workspace of secretsHome's runs: beside the home, whose files
// the file tools refuse to read, as commands cannot.
func wsOf(home string) string { return filepath.Join(filepath.Dir(home), "ws") }

// assertNoSecret fails when text holds any of the secrets.
func assertNoSecret(t *testing.T, where string, text []byte) {
	t.Helper()
	for _, s := range allSecrets {
		if strings.Contains(string(text), s) {
			t.Errorf("%s holds the secret %s", where, s)
		}
	}
}

// TestManager_SecretsStayOutOfTheRun: a run whose tools read hermes.toml
// and a file holding a secret from the environment logs, publishes and
// checkpoints none of the secrets Hermes holds, only [REDACTED].
func TestManager_SecretsStayOutOfTheRun(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"hermes.toml"}`}}},
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "read_file", Arguments: `{"path":".env"}`}}},
		llmtest.Step{Content: "The corp secret is " + corpSecret + " and the key " + modelKey + "."},
	)
	m, home := secretsHome(t, srv, "")
	// The user's copy of the config, which the workspace may well hold.
	toml, err := os.ReadFile(filepath.Join(home, "hermes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wsOf(home), "hermes.toml"), toml, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wsOf(home), ".env"), []byte("WECOM_SECRET="+corpSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "what is in my config?"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, id)
	var all strings.Builder
	for _, e := range events {
		all.Write(e.Data)
	}
	assertNoSecret(t, "the events", []byte(all.String()))
	if !strings.Contains(all.String(), runlog.Redacted) {
		t.Fatal("the tools' results were not read: no [REDACTED] in the events")
	}
	if last := events[len(events)-1]; last.Type != event.RunFinished {
		t.Fatalf("the run ended with %s %s", last.Type, last.Data)
	}
	path, err := runlog.Find(home, id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "the run log", raw)

	store := openStore(t, home)
	state, turns, err := store.LoadCheckpoint(id)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "the checkpoint's state", state)
	for i, turn := range turns {
		assertNoSecret(t, "checkpoint turn "+string(rune('0'+i)), turn)
	}
}

// TestManager_MemoryHoldsNoSecret: what a run writes to long-term memory
// is scrubbed like its events, so `hermes memory show` and the API never
// serve a key.
func TestManager_MemoryHoldsNoSecret(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "I will remember that the key is " + modelKey + " and the bot's secret " + webhookSecret + "."})
	m, home := secretsHome(t, srv, "")
	id, err := m.Start(t.Context(), runner.StartRequest{
		Task:         "Remember that the webhook secret is " + webhookSecret + ".",
		Instructions: "From now on remember that my key is " + modelKey + ".",
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range waitEnd(t, m, id) {
		assertNoSecret(t, "event "+string(e.Type), e.Data)
	}
	store := openStore(t, home)
	state, _, err := store.LoadCheckpoint(id)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "the checkpoint's state", state)
	entries, err := longterm.New(store).Memories(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("the run wrote no memory")
	}
	redacted := false
	for _, e := range entries {
		assertNoSecret(t, "memory entry "+e.Kind, []byte(e.Text))
		redacted = redacted || strings.Contains(e.Text, runlog.Redacted)
	}
	if !redacted {
		t.Fatalf("no entry says [REDACTED]: %+v", entries)
	}
}

func openStore(t *testing.T, home string) *store.Store {
	t.Helper()
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// authSeen is a loopback proxy in front of a scripted model that records
// the Authorization header of every request, the model list's included.
type authSeen struct {
	URL  string
	mu   sync.Mutex
	seen []string
}

func recordAuth(t *testing.T, srv *llmtest.Server) *authSeen {
	t.Helper()
	target, err := url.Parse(strings.TrimSuffix(srv.URL, "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	a := &authSeen{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.seen = append(a.seen, r.Header.Get("Authorization"))
		a.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	a.URL = front.URL + "/v1"
	return a
}

func (a *authSeen) headers() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.seen...)
}

// TestManager_KeyFollowsTheEndpoint: the configured key goes to the
// configured endpoint only. A run pointed at another endpoint sends it no
// key, and is told how to give that endpoint one; with a [[model.endpoints]]
// entry it sends that entry's key.
func TestManager_KeyFollowsTheEndpoint(t *testing.T) {
	configured := llmtest.NewServer(t, llmtest.Step{Content: "hello"})
	other := llmtest.NewServer(t, llmtest.Step{Content: "hello from the other"})
	proxied := recordAuth(t, other)

	m, _ := secretsHome(t, configured, "")
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, id)
	if reqs := configured.Requests(); len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer "+modelKey {
		t.Fatalf("the configured endpoint was not sent the configured key: %v", reqs)
	}

	_, err = m.Start(t.Context(), runner.StartRequest{Task: "hi", BaseURL: proxied.URL})
	if !errors.Is(err, llm.ErrUnauthorized) || !strings.Contains(err.Error(), "[[model.endpoints]]") || !strings.Contains(err.Error(), "api_key_env") {
		t.Fatalf("a run at an endpoint without a key: %v", err)
	}
	seen := proxied.headers()
	if len(seen) == 0 {
		t.Fatal("the other endpoint was never asked")
	}
	for _, h := range seen {
		if h != "" {
			t.Fatalf("the other endpoint was sent Authorization %q", h)
		}
	}
	if mc := m.CheckModel(t.Context(), runner.Overrides{BaseURL: proxied.URL}); mc.OK || mc.KeySent || mc.Error == nil || strings.Contains(string(mc.Error.JSON()), modelKey) {
		t.Fatalf("CheckModel at the other endpoint: %+v", mc)
	}

	m, _ = secretsHome(t, configured, "\n[[model.endpoints]]\nbase_url = \""+proxied.URL+"\"\napi_key_env = \"TEST_ENDPOINT_KEY\"\n")
	// The same endpoint, written with a trailing slash and another case.
	id, err = m.Start(t.Context(), runner.StartRequest{Task: "hi", BaseURL: strings.Replace(proxied.URL, "http://", "HTTP://", 1) + "/"})
	if err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, id)
	reqs := other.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer "+endpointKey {
		t.Fatalf("the endpoint's entry's key was not sent: %v", reqs)
	}
}

// TestManager_ToolResultsReachTheModelRedacted: what the run's tools read —
// a copy of hermes.toml, the bot's secret encoded, the password of the
// base_url the run was started with — reaches the model's next request
// with every secret redacted, in every form.
func TestManager_ToolResultsReachTheModelRedacted(t *testing.T) {
	const urlPassword = "override-url-password-31"
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: `{"path":"copy.toml"}`},
			{ID: "c2", Name: "read_file", Arguments: `{"path":"dump.txt"}`},
		}},
		llmtest.Step{Content: "Done."},
	)
	m, home := secretsHome(t, srv, "")
	toml, err := os.ReadFile(filepath.Join(home, "hermes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dump := agenttest.Encodings(corpSecret) + agenttest.Encodings(webhookSecret) + "base_url: " + urlPassword + "\n"
	for name, content := range map[string][]byte{"copy.toml": toml, "dump.txt": []byte(dump)} {
		if err := os.WriteFile(filepath.Join(wsOf(home), name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base := strings.Replace(srv.URL, "http://", "http://hermes:"+urlPassword+"@", 1)
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "what is in these files?", BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if last := waitEnd(t, m, id); last[len(last)-1].Type != event.RunFinished {
		t.Fatalf("the run ended with %s", last[len(last)-1].Type)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	sent, _ := json.Marshal(reqs[1].Messages)
	if !strings.Contains(string(sent), runlog.Redacted) {
		t.Fatal("the tools' results were not sent")
	}
	for _, s := range append(allSecrets, urlPassword) {
		if leaks := agenttest.Leaks(sent, s); len(leaks) > 0 {
			t.Errorf("the model was sent %s as %q", s, leaks)
		}
	}
}
