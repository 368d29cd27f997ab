package config

import (
	"errors"
	"slices"
	"strings"
	"time"

	"hermes/backend/i18n"
)

// Bot configures `hermes bot`, the chat-bot webhook server: what every
// platform's callback and bot has. Empty settings take the defaults of the
// accessors below. A secret may be given instead as an environment
// reference (webhook_secret_env). Each platform has keys of its own in
// [bot] besides these (BotPlatform.Keys, as WeCom's corp_id and Feishu's
// app_id), held in Sections.
type Bot struct {
	// Platform is the adapter, one of those registered
	// (RegisterBotPlatform); "wecom" (a self-built WeCom application's
	// callback) by default.
	Platform string `toml:"platform"`
	// Listen is the address the callback server listens on.
	Listen string `toml:"listen"`
	// Path is the URL path of the callback.
	Path string `toml:"path"`
	// WebhookSecret is the secret the callbacks are signed with, of two
	// platforms, and so [bot]'s: WeCom's callback Token, or the generic
	// webhook's HMAC key.
	WebhookSecret    string `toml:"webhook_secret"`
	WebhookSecretEnv string `toml:"webhook_secret_env"`
	// APIBase is the platform API's address, "" for the platform's own
	// (BotPlatform.APIBase); tests point it at a local server.
	APIBase string `toml:"api_base"`
	// RateLimit is how many platform API calls may start in any one second.
	RateLimit int `toml:"rate_limit"`
	// MaxBody is the largest callback body accepted, in bytes.
	MaxBody int `toml:"max_body"`
	// AllowTools names tools that may run in the bot although the policy
	// would ask a person about them; every other asked call is denied.
	AllowTools []string `toml:"allow_tools"`
	// AllowDepartments, when set, limits the bot to members of these
	// departments (by id or name) or of their sub-departments, as the WeCom
	// contacts say.
	AllowDepartments DepartmentRefs `toml:"allow_departments"`
	// Workspace is the directory under which each user gets a workspace of
	// their own; "" means HOME/bot/workspaces.
	Workspace string `toml:"workspace"`
	// History is how many earlier exchanges of a session the next run sees.
	History int `toml:"history"`
	// RunTimeout bounds one run; after it the run is stopped at a safe point.
	RunTimeout Duration `toml:"run_timeout"`

	// Sections are the registered platforms' own keys ([bot] too in the
	// file; BotPlatform.Keys, BotKeys).
	Sections BotSections `toml:"-"`
}

// BotWeCom is the platform [bot] platform names by default: a self-built
// WeCom application (backend/wecom registers it).
const BotWeCom = "wecom"

// Defaults of the [bot] section.
const (
	DefaultBotListen     = "127.0.0.1:8700"
	DefaultBotPath       = "/callback"
	DefaultBotRateLimit  = 20
	DefaultBotMaxBody    = 64 * 1024
	DefaultBotHistory    = 10
	DefaultBotRunTimeout = 30 * time.Minute
)

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// PlatformName is the adapter in use.
func (b Bot) PlatformName() string { return orDefault(b.Platform, BotWeCom) }

// ListenAddr is the address to listen on.
func (b Bot) ListenAddr() string { return orDefault(b.Listen, DefaultBotListen) }

// CallbackPath is the URL path of the callback.
func (b Bot) CallbackPath() string { return orDefault(b.Path, DefaultBotPath) }

// API is the platform API's base URL, without a trailing slash: api_base,
// else the platform's default (BotPlatform.APIBase), "" for a platform
// without an API of its own (the generic webhook).
func (b Bot) API() string {
	var def string
	if p, ok := botPlatform(b.PlatformName()); ok {
		def = p.APIBase
	}
	return strings.TrimRight(orDefault(b.APIBase, def), "/")
}

// APIRate is the number of platform API calls allowed per second.
func (b Bot) APIRate() int { return orDefault(b.RateLimit, DefaultBotRateLimit) }

// BodyLimit is the largest callback body accepted.
func (b Bot) BodyLimit() int { return orDefault(b.MaxBody, DefaultBotMaxBody) }

// HistoryTurns is how many earlier exchanges a new run sees.
func (b Bot) HistoryTurns() int { return orDefault(b.History, DefaultBotHistory) }

// RunLimit bounds one run.
func (b Bot) RunLimit() time.Duration { return orDefault(b.RunTimeout.Duration, DefaultBotRunTimeout) }

// validate checks the ranges of what the file gives; Ready checks, when the
// bot starts, that what it needs is there.
func (b Bot) validate() error {
	var errs []error
	// A program that links no platform (a test of another package) cannot
	// tell a good name; hermes links them all (backend/platforms).
	if names := BotPlatformNames(); len(names) > 0 && !slices.Contains(names, b.PlatformName()) {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.bot.platform", b.Platform, `"`+strings.Join(names, `", "`)+`"`))
	}
	for _, v := range []struct {
		key string
		n   int
	}{{"rate_limit", b.RateLimit}, {"max_body", b.MaxBody}, {"history", b.History}} {
		if v.n < 0 {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", "[bot] "+v.key, v.n, 0))
		}
	}
	if b.RunTimeout.Duration < 0 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.duration", "[bot] run_timeout", b.RunTimeout.String()))
	}
	errs = append(errs, CheckURL("api_base", b.APIBase))
	// A platform's own keys are checked wherever they are written.
	for _, p := range botPlatformList() {
		if p.Validate != nil {
			errs = append(errs, p.Validate(b)...)
		}
	}
	if p := b.CallbackPath(); !strings.HasPrefix(p, "/") {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.bot.path", p))
	}
	errs = append(errs, b.validateContacts()...)
	return errors.Join(errs...)
}

// Ready reports every setting the chosen platform needs and lacks, once
// environment references are resolved (Config.ResolveEnv).
func (b Bot) Ready() error {
	if p, ok := botPlatform(b.PlatformName()); ok && p.Ready != nil {
		return errors.Join(p.Ready(b)...)
	}
	return nil
}

// Warnings are what [bot] lets the bot start with but leaves open, once
// environment references are resolved (Config.ResolveEnv), as its platform
// says.
func (b Bot) Warnings() []error {
	if p, ok := botPlatform(b.PlatformName()); ok && p.Warnings != nil {
		return p.Warnings(b)
	}
	return nil
}
