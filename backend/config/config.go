// Package config reads hermes.toml and finds the home directory that every
// mode of Hermes shares.
package config

import (
	"fmt"
	"path/filepath"
	"time"

	"hermes/backend/price"
)

// Version is the config layout this Hermes writes and understands.
const Version = 1

// The modes a bare `hermes` can start in ([agent] mode).
const (
	ModeDesktop = "desktop" // the window
	ModeCLI     = "cli"     // the list of commands, for a machine without a display
	ModeBot     = "bot"     // `hermes bot`, for a server
)

// Config is hermes.toml.
type Config struct {
	Version  int      `toml:"version"`
	Agent    Agent    `toml:"agent"`
	Model    Model    `toml:"model"`
	Tools    Tools    `toml:"tools"`
	Obsidian Obsidian `toml:"obsidian"`
	Update   Update   `toml:"update"`
	Context  Context  `toml:"context"`
	Bot      Bot      `toml:"bot"`
	// Prices are [prices."MODEL"] tables, over DefaultPrices (PriceTable).
	Prices price.Table `toml:"prices"`
	// Telemetry exports every run as an OpenTelemetry trace.
	Telemetry Telemetry `toml:"telemetry"`
	// Cluster shares the bot's state among replicas through NATS JetStream.
	Cluster Cluster `toml:"cluster"`
	// Desktop is what the window does on the desktop.
	Desktop Desktop `toml:"desktop"`
	// Eval configures hermes eval.
	Eval Eval `toml:"eval"`
}

// Agent configures the loop and its gates.
type Agent struct {
	// Mode is what a bare `hermes` starts: ModeDesktop, ModeCLI or ModeBot.
	Mode          string   `toml:"mode"`
	MaxIterations int      `toml:"max_iterations"` // every model turn counts
	TokenBudget   int      `toml:"token_budget"`   // total tokens per run, 0 = none
	ToolTimeout   Duration `toml:"tool_timeout"`
	Workspace     string   `toml:"workspace"` // "" = the current directory at run time
	// RepeatLimit is how many identical calls in a row trigger an
	// intervention; the next one stops the run.
	RepeatLimit int `toml:"repeat_limit"`
	// FailureLimit is how many failures in a row of one tool stop the run.
	FailureLimit int `toml:"failure_limit"`
	// NoProgressLimit is how many iterations in a row without a valid
	// observation stop the run.
	NoProgressLimit int `toml:"no_progress_limit"`
	// ObservationLimit is how many characters of a tool result the model sees
	// before the middle is cut.
	ObservationLimit int `toml:"observation_limit"`
	// Strategy is how new runs work: StrategyPlan (plan, act, evaluate each
	// step, check the answer) or StrategyReact (act and observe). A resumed
	// run keeps the strategy it started with.
	Strategy string `toml:"strategy"`
	// Route answers a message that needs no tools (a greeting, a plain
	// question) directly, without the loop.
	Route bool `toml:"route"`
	// Confidence is the model's confidence in its answer that ends a run
	// under the plan strategy, from 0 to 1.
	Confidence float64 `toml:"confidence"`
	// Protocol is how the model calls tools: ProtocolTools (function
	// calling) or ProtocolJSON (a JSON object in its reply, for local models
	// without tool calls).
	Protocol string `toml:"protocol"`
	// Temperature is the sampling temperature of each stage's requests.
	Temperature Temperatures `toml:"temperature"`
	// TopP is the top_p of each stage's requests; a stage's 0 sends none.
	TopP Temperatures `toml:"top_p"`
}

// Model configures the OpenAI-compatible endpoint.
type Model struct {
	BaseURL   string `toml:"base_url"`
	Model     string `toml:"model"`
	APIKey    string `toml:"api_key"`
	APIKeyEnv string `toml:"api_key_env"` // name of an environment variable holding the key
	// ContextWindow is the model's window in tokens; 0 means the known window
	// of the model name (ContextWindowFor).
	ContextWindow int      `toml:"context_window"`
	MaxRetries    int      `toml:"max_retries"`
	Timeout       Duration `toml:"timeout"`
	// MaxOutputTokens caps each reply: it is sent as max_tokens, and the
	// client stops reading a reply past llm.ReplyCap of it.
	MaxOutputTokens int `toml:"max_output_tokens"`
	// SendReasoning says which assistant messages carry the model's
	// reasoning back to the provider: SendReasoningAuto, SendReasoningAlways
	// or SendReasoningNever (llm.Config.SendReasoning).
	SendReasoning string `toml:"send_reasoning"`
	// Endpoints are the other endpoints a run may be pointed at, each with
	// its own key (At).
	Endpoints []Endpoint `toml:"endpoints"`
}

// Default is the configuration used where hermes.toml says nothing.
func Default() Config {
	return Config{
		Version: Version,
		Agent: Agent{
			Mode:             ModeDesktop,
			MaxIterations:    25,
			ToolTimeout:      Duration{30 * time.Second},
			RepeatLimit:      3,
			FailureLimit:     3,
			NoProgressLimit:  3,
			ObservationLimit: 8000,
			Strategy:         StrategyPlan,
			Route:            true,
			Confidence:       DefaultConfidence,
			Protocol:         ProtocolTools,
			Temperature:      DefaultTemperatures,
		},
		Model: Model{
			BaseURL:         "https://api.openai.com/v1",
			Model:           "gpt-4o-mini",
			MaxRetries:      3,
			Timeout:         Duration{120 * time.Second},
			MaxOutputTokens: DefaultMaxOutputTokens,
			SendReasoning:   SendReasoningAuto,
		},
		Desktop: Desktop{Notify: true},
	}
}

// FromEnv layers the environment over the file's model settings:
// OPENAI_BASE_URL over base_url, and OPENAI_API_KEY over api_key. A variable
// named by api_key_env is an explicit choice and always gives the key, even
// when empty: falling back to OPENAI_API_KEY would send one provider's key
// to another provider's endpoint.
func (m Model) FromEnv(getenv func(string) string) Model {
	if v := getenv("OPENAI_BASE_URL"); v != "" {
		m.BaseURL = v
	}
	switch {
	case m.APIKeyEnv != "":
		m.APIKey = getenv(m.APIKeyEnv)
	case getenv("OPENAI_API_KEY") != "":
		m.APIKey = getenv("OPENAI_API_KEY")
	}
	return m
}

// Path is the config file of a home directory.
func Path(home string) string { return filepath.Join(home, "hermes.toml") }

// Duration is a time.Duration written in TOML as a string such as "30s".
type Duration struct{ time.Duration }

// UnmarshalText parses a duration such as "30s" or "1h30m".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: %w", b, err)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration as TOML reads it back.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
