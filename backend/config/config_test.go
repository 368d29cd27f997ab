package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hermes/backend/i18n"
)

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hermes.toml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoad_MissingFileGivesDefaults(t *testing.T) {
	cfg, err := Load(filepath.Join(t.TempDir(), "hermes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("got %+v, want the defaults", cfg)
	}
	d := Default()
	if d.Agent.MaxIterations != 25 || d.Agent.ToolTimeout.Duration != 30*time.Second || d.Agent.RepeatLimit != 3 ||
		d.Agent.FailureLimit != 3 || d.Agent.NoProgressLimit != 3 || d.Agent.ObservationLimit != 8000 ||
		d.Model.BaseURL != "https://api.openai.com/v1" || d.Model.Model != "gpt-4o-mini" ||
		d.Model.MaxRetries != 3 || d.Model.Timeout.Duration != 120*time.Second || d.Version != Version {
		t.Fatalf("defaults differ from the documented ones: %+v", d)
	}
	if err := d.Validate(); err != nil {
		t.Fatalf("the defaults do not validate: %v", err)
	}
}

func TestLoad_Overrides(t *testing.T) {
	path := writeConfig(t, `
version = 1

[agent]
max_iterations = 40
tool_timeout = "1m30s"
workspace = 'C:\Users\me\notes'
token_budget = 50000

[model]
base_url = "http://127.0.0.1:11434/v1"
model = "qwen2.5:7b"
api_key_env = "LOCAL_KEY"
timeout = "5s"
context_window = 32768
`)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Agent.MaxIterations = 40
	want.Agent.ToolTimeout = Duration{90 * time.Second}
	want.Agent.Workspace = `C:\Users\me\notes`
	want.Agent.TokenBudget = 50000
	want.Model.BaseURL = "http://127.0.0.1:11434/v1"
	want.Model.Model = "qwen2.5:7b"
	want.Model.APIKeyEnv = "LOCAL_KEY"
	want.Model.Timeout = Duration{5 * time.Second}
	want.Model.ContextWindow = 32768
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", cfg, want)
	}
}

func TestLoad_Errors(t *testing.T) {
	i18n.SetLang(i18n.EN)
	tests := []struct {
		name   string
		config string
		is     error
		want   []string // each must appear in the message
	}{
		{
			name:   "syntax",
			config: "[agent]\nmax_iterations = 25\ntool_timeout = \"30s\n",
			is:     ErrSyntax,
			want:   []string{"line 3, column", "correct the TOML"},
		},
		{
			name:   "unknown key with a near one",
			config: "[model]\nbase_url = \"http://x/v1\"\nmodle = \"gpt-4o\"\n",
			is:     ErrUnknownKey,
			want:   []string{"line 3, column 1", "unknown key [model] modle", "did you mean model?"},
		},
		{
			name:   "unknown key among dotted keys",
			config: "agent.max_iteration = 3\n",
			is:     ErrUnknownKey,
			want:   []string{"line 1, column 1", "[agent] max_iteration", "did you mean max_iterations?"},
		},
		{
			name:   "unknown table",
			config: "[agnet]\nmax_iterations = 3\n",
			is:     ErrUnknownKey,
			want:   []string{"line 1, column 1", "unknown key agnet", "did you mean agent?"},
		},
		{
			name:   "unknown key with nothing near",
			config: "\n[agent]\n  colour = \"blue\"\n",
			is:     ErrUnknownKey,
			want:   []string{"line 3, column 3", "[agent] colour", "the keys there are: confidence, failure_limit, max_iterations"},
		},
		{
			name:   "string for an integer",
			config: "[agent]\nmax_iterations = \"40\"\n",
			is:     ErrWrongType,
			want:   []string{"line 2, column 1", "[agent] max_iterations must be an integer, such as 25, not a string"},
		},
		{
			name:   "integer for a duration",
			config: "[agent]\ntool_timeout = 30\n",
			is:     ErrWrongType,
			want:   []string{"line 2", "[agent] tool_timeout must be a duration string, such as \"30s\", not an integer"},
		},
		{
			name:   "bad duration",
			config: "[model]\ntimeout = \"2 minutes\"\n",
			is:     ErrWrongType,
			want:   []string{"line 2", `[model] timeout must be a duration such as "30s"`, `not "2 minutes"`},
		},
		{
			name:   "value for a table",
			config: "model = \"gpt-4o\"\n",
			is:     ErrWrongType,
			want:   []string{"line 1", "model must be a table, such as [model], not a string"},
		},
		{
			name:   "windows path that fails to parse",
			config: "[agent]\nworkspace = \"C:\\Users\\me\"\n",
			is:     ErrSyntax,
			want:   []string{"line 2, column", "single quotes", "forward slashes"},
		},
		{
			name:   "windows path read as escapes",
			config: "[agent]\nmax_iterations = 5\nworkspace = \"C:\\temp\\notes\"\n",
			is:     ErrEscapedPath,
			want:   []string{"line 3, column 13:", "[agent] workspace", `"\t"`, "single quotes"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.config)
			_, err := Load(path)
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			msg := err.Error()
			for _, w := range append(tt.want, path) {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestLoad_ReportsEveryWrongType(t *testing.T) {
	i18n.SetLang(i18n.EN)
	_, err := Load(writeConfig(t, "[model]\nmax_retries = \"x\"\n[agent]\nrepeat_limit = true\n"))
	msg := err.Error()
	first, second := strings.Index(msg, "max_retries"), strings.Index(msg, "repeat_limit")
	if first < 0 || second < first {
		t.Fatalf("want both mistakes in file order, got %q", msg)
	}
}

func TestLoad_ChineseMessages(t *testing.T) {
	i18n.SetLang(i18n.ZH)
	t.Cleanup(func() { i18n.SetLang(i18n.EN) })
	_, err := Load(writeConfig(t, "[model]\nmodle = \"x\"\n"))
	if msg := err.Error(); !strings.Contains(msg, "第 2 行第 1 列") || !strings.Contains(msg, "你是想写 model 吗") {
		t.Fatalf("message %q is not in Chinese", msg)
	}
}

func TestLoad_MultilineStringsKeepNewlines(t *testing.T) {
	// Only the escape-mangled path is an error; other strings may hold
	// control characters, and keys after a multi-line string keep their lines.
	path := writeConfig(t, "[model]\nmodel = \"\"\"\nname = 1\n\"\"\"\nmodle = 2\n")
	_, err := Load(path)
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("err = %v, want the unknown key at line 5", err)
	}
}

func TestValidate(t *testing.T) {
	i18n.SetLang(i18n.EN)
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"max iterations", func(c *Config) { c.Agent.MaxIterations = 0 }, "[agent] max_iterations is 0 but must be at least 1"},
		{"token budget", func(c *Config) { c.Agent.TokenBudget = -1 }, "[agent] token_budget"},
		{"tool timeout", func(c *Config) { c.Agent.ToolTimeout = Duration{} }, "[agent] tool_timeout is 0s"},
		{"repeat limit", func(c *Config) { c.Agent.RepeatLimit = 0 }, "[agent] repeat_limit"},
		{"failure limit", func(c *Config) { c.Agent.FailureLimit = 0 }, "[agent] failure_limit"},
		{"no progress limit", func(c *Config) { c.Agent.NoProgressLimit = 0 }, "[agent] no_progress_limit"},
		{"observation limit", func(c *Config) { c.Agent.ObservationLimit = 10 }, "[agent] observation_limit"},
		{"base url", func(c *Config) { c.Model.BaseURL = "api.openai.com/v1" }, "base_url \"api.openai.com/v1\" is not an http or https URL"},
		{"model", func(c *Config) { c.Model.Model = "" }, "[model] model is empty"},
		{"context window", func(c *Config) { c.Model.ContextWindow = -5 }, "[model] context_window"},
		{"retries", func(c *Config) { c.Model.MaxRetries = -1 }, "[model] max_retries"},
		{"no output tokens", func(c *Config) { c.Model.MaxOutputTokens = 0 }, "[model] max_output_tokens is 0 but must be between 256 and 1000000"},
		{"too many output tokens", func(c *Config) { c.Model.MaxOutputTokens = 2_000_000 }, "[model] max_output_tokens"},
		{"model timeout", func(c *Config) { c.Model.Timeout = Duration{-time.Second} }, "[model] timeout"},
		{"send reasoning", func(c *Config) { c.Model.SendReasoning = "sometimes" }, `[model] send_reasoning is "sometimes"`},
		{"newer version", func(c *Config) { c.Version = Version + 1 }, "update Hermes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.change(&c)
			err := c.Validate()
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalid saying %q", err, tt.want)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		m        Model
		wantKey  string
		wantBase string
	}{
		{"the file alone", nil, Model{APIKey: "sk-file", BaseURL: "http://file/v1"}, "sk-file", "http://file/v1"},
		{"the environment over the file", map[string]string{"OPENAI_API_KEY": "sk-env", "OPENAI_BASE_URL": "http://env/v1"},
			Model{APIKey: "sk-file", BaseURL: "http://file/v1"}, "sk-env", "http://env/v1"},
		{"api_key_env names the variable", map[string]string{"OPENAI_API_KEY": "sk-openai", "DEEPSEEK_KEY": "sk-deepseek"},
			Model{APIKey: "sk-file", APIKeyEnv: "DEEPSEEK_KEY"}, "sk-deepseek", ""},
		{"an unset api_key_env does not fall back to another provider's key", map[string]string{"OPENAI_API_KEY": "sk-openai"},
			Model{APIKeyEnv: "MISSING"}, "", ""},
	}
	for _, tt := range tests {
		got := tt.m.FromEnv(func(k string) string { return tt.env[k] })
		if got.APIKey != tt.wantKey || got.BaseURL != tt.wantBase {
			t.Errorf("%s: key %q base %q, want %q %q", tt.name, got.APIKey, got.BaseURL, tt.wantKey, tt.wantBase)
		}
	}
}

func TestContextWindowFor(t *testing.T) {
	tests := map[string]int{
		"gpt-4o-mini":         128000,
		"gpt-4.1-nano":        1047576,
		"o3-mini":             200000,
		"o4-mini":             200000,
		"deepseek-chat":       128000,
		"deepseek-reasoner":   128000,
		"qwen2.5:7b":          32768,
		"qwen-plus":           131072,
		"llama3.1:8b":         131072,
		"llama3:8b":           8192,
		"openai/GPT-4o":       128000,
		"some-unknown-model":  128000,
		"mistral-small:24b":   128000,
		"gpt-4":               8192,
		"gpt-4-turbo-preview": 128000,
	}
	for model, want := range tests {
		if got := ContextWindowFor(model); got != want {
			t.Errorf("ContextWindowFor(%q) = %d, want %d", model, got, want)
		}
	}
}

func TestResolveHome(t *testing.T) {
	user := t.TempDir()
	flagDir := filepath.Join(t.TempDir(), "from-flag")
	envDir := filepath.Join(t.TempDir(), "from-env", "nested")
	tests := []struct {
		name string
		flag string
		env  map[string]string
		want string
	}{
		{"flag wins", flagDir, map[string]string{"HERMES_HOME": envDir, "HOME": user}, flagDir},
		{"then HERMES_HOME", "", map[string]string{"HERMES_HOME": envDir, "HOME": user}, envDir},
		{"then ~/.hermes", "", map[string]string{"HOME": user}, filepath.Join(user, ".hermes")},
		{"tilde expanded", "~/work/hermes", map[string]string{"HOME": user}, filepath.Join(user, "work", "hermes")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveHome(tt.flag, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("home = %s, want %s", got, tt.want)
			}
			st, err := os.Stat(got)
			if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
				t.Fatalf("home not created as a 0700 directory: %v %v", st, err)
			}
		})
	}
	if _, err := ResolveHome("", func(string) string { return "" }); !errors.Is(err, ErrHome) {
		t.Errorf("no flag, no env, no HOME: %v, want ErrHome", err)
	}
	file := filepath.Join(user, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ResolveHome(file, os.Getenv); !errors.Is(err, ErrHome) || !strings.Contains(err.Error(), "--home") {
		t.Errorf("a file as home: %v, want ErrHome telling to pass --home", err)
	}
}

func TestPath(t *testing.T) {
	if got := Path(filepath.FromSlash("/h")); got != filepath.FromSlash("/h/hermes.toml") {
		t.Fatalf("Path = %s", got)
	}
}
