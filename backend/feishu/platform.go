package feishu

import (
	"context"

	"hermes/backend/chat"
	"hermes/backend/config"
	"hermes/backend/i18n"
)

// Name is the platform's name, as [bot] platform picks it.
const Name = "feishu"

// The Feishu open API's address, and Lark's (its international edition),
// for [bot] api_base.
const (
	DefaultAPIBase = "https://open.feishu.cn"
	LarkAPIBase    = "https://open.larksuite.com"
)

// Keys are a Feishu (or Lark) app's keys of [bot]: its credentials, and
// its event subscription's token and key (an empty EncryptKey: events
// arrive unencrypted and unsigned). Each may be given instead as an
// environment reference (app_secret_env…).
type Keys struct {
	AppID                string `toml:"app_id"`
	AppIDEnv             string `toml:"app_id_env"`
	AppSecret            string `toml:"app_secret"`
	AppSecretEnv         string `toml:"app_secret_env"`
	VerificationToken    string `toml:"verification_token"`
	VerificationTokenEnv string `toml:"verification_token_env"`
	EncryptKey           string `toml:"encrypt_key"`
	EncryptKeyEnv        string `toml:"encrypt_key_env"`
}

func init() {
	i18n.Register(platformMessages)
	chat.Register(chat.Platform{
		Config: config.BotPlatform{
			Name: Name, About: config.Doc{EN: "a Feishu or Lark app's bot; Lark's api_base is " + LarkAPIBase, ZH: "飞书或 Lark 应用机器人；Lark 国际版的 api_base 为 " + LarkAPIBase},
			Keys: Keys{}, Docs: keyDocs, APIBase: DefaultAPIBase,
			Ready: ready, Warnings: warnings,
		},
		New: newAdapter,
	})
}

var keyDocs = map[string]config.Doc{
	"app_id":         {EN: `A Feishu or Lark app's App ID (platform "feishu").`, ZH: `飞书或 Lark 应用的 App ID（平台 "feishu"）。`},
	"app_id_env":     {EN: "The environment variable that holds app_id.", ZH: "保存 app_id 的环境变量名。"},
	"app_secret":     {EN: `The Feishu app's App Secret (platform "feishu").`, ZH: `飞书应用的 App Secret（平台 "feishu"）。`},
	"app_secret_env": {EN: "The environment variable that holds app_secret.", ZH: "保存 app_secret 的环境变量名。"},
	"verification_token": {EN: `The Verification Token of the Feishu app's event subscription; every event must carry it.`,
		ZH: `飞书应用事件订阅的 Verification Token；每个事件都必须带有它。`},
	"verification_token_env": {EN: "The environment variable that holds verification_token.", ZH: "保存 verification_token 的环境变量名。"},
	"encrypt_key": {EN: `The Encrypt Key of the Feishu app's event subscription: events are then encrypted and signed (X-Lark-Signature), and unsigned ones refused. Recommended: without it events come unsigned, and anyone who learns the verification token can send the bot events (hermes bot and hermes config check warn of it).`,
		ZH: `飞书应用事件订阅的 Encrypt Key：设置后事件加密并带签名（X-Lark-Signature），未签名的事件被拒绝。建议设置：不设置时事件不带签名，任何得知 Verification Token 的人都能向机器人发送事件（hermes bot 和 hermes config check 会发出警告）。`},
	"encrypt_key_env": {EN: "The environment variable that holds encrypt_key.", ZH: "保存 encrypt_key 的环境变量名。"},
}

// ready reports the settings that are missing, each saying where in the
// developer console the value is found (in the language the error is read
// in). The encrypt key is optional, as it is in Feishu.
func ready(b config.Bot) []error {
	k := config.BotKeys[Keys](b)
	var errs []error
	for _, s := range []struct{ key, value, where string }{
		{"app_id", k.AppID, "feishu.config.credentials"},
		{"app_secret", k.AppSecret, "feishu.config.credentials"},
		{"verification_token", k.VerificationToken, "feishu.config.events"},
	} {
		if s.value == "" {
			errs = append(errs, i18n.Wrap(config.ErrInvalid, "feishu.config.missing", s.key, i18n.Errorf(s.where)))
		}
	}
	return errs
}

// warnings warn of an app without an encrypt key, whose events come
// unsigned, so that the verification token is all that proves them
// Feishu's.
func warnings(b config.Bot) []error {
	if config.BotKeys[Keys](b).EncryptKey == "" {
		return []error{i18n.Errorf("feishu.config.unsigned", i18n.Errorf("feishu.config.events"))}
	}
	return nil
}

// newAdapter builds the adapter of a Feishu (or Lark) app and its API
// client; the replicas of a clustered bot share the tenant token and the
// app's rate.
func newAdapter(env chat.Env) (chat.Adapter, error) {
	c, k := env.Config, config.BotKeys[Keys](env.Config)
	o := APIOptions{
		Base: c.API(), AppID: k.AppID, AppSecret: k.AppSecret, Rate: c.APIRate(),
		HTTP: env.HTTP, Backoff: env.Backoff, Now: env.Now,
	}
	if sh := env.Shared; sh != nil {
		app := "feishu/" + k.AppID
		o.Token, o.RateLimit = sh.Token(app), sh.Rate(app, c.APIRate())
	}
	return NewAdapter(Callback{
		VerificationToken: k.VerificationToken, EncryptKey: k.EncryptKey,
		BodyLimit: env.BodyLimit, Now: env.Now,
	}, NewAPI(o), env.Inbox), nil
}

// Check fetches a tenant access token (API.Check) and says what to fix in
// [bot] when Feishu refuses.
func (a *Adapter) Check(ctx context.Context) error {
	if err := a.api.Check(ctx); err != nil {
		return i18n.Wrap(err, "feishu.refused", err)
	}
	return nil
}

// ReplierTo replies to the Feishu message to, wherever its callback came.
func (a *Adapter) ReplierTo(_, to string) chat.Replier { return a.api.ReplierTo(to) }

var (
	_ chat.Checker    = (*Adapter)(nil)
	_ chat.Replicated = (*Adapter)(nil)
)

func platformMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"feishu.config.missing": {
			EN: `[bot] %s is not set but platform "feishu" needs it; copy it from %s into hermes.toml (a secret may be given as an environment variable with the _env key, such as app_secret_env)`,
			ZH: `[bot] 未设置 %s，但平台 "feishu" 需要它；请从%s复制到 hermes.toml（密钥也可以用带 _env 后缀的键指定环境变量，例如 app_secret_env）`,
		},
		"feishu.config.unsigned": {
			EN: `[bot] encrypt_key is not set, so Feishu's events come unencrypted and unsigned: anyone who learns the verification token can send the bot events that run tasks. Set an Encrypt Key on %s and put it in encrypt_key (or in the variable encrypt_key_env names)`,
			ZH: `[bot] 未设置 encrypt_key，飞书的事件因此不加密、不带签名：任何得知 Verification Token 的人都能向机器人发送事件、让它执行任务。请在%s设置 Encrypt Key，并填入 encrypt_key（或 encrypt_key_env 指定的环境变量）`,
		},
		"feishu.config.credentials": {
			EN: "the app's Credentials & Basic Info page in the Feishu (or Lark) developer console",
			ZH: "飞书开发者后台中应用的“凭证与基础信息”页面",
		},
		"feishu.config.events": {
			EN: "the app's Events & Callbacks > Encryption Strategy page in the Feishu (or Lark) developer console",
			ZH: "飞书开发者后台中应用的“事件与回调 > 加密策略”页面",
		},
		"feishu.refused": {
			EN: "Feishu did not give a tenant access token: %v; check [bot] app_id and app_secret (the app's Credentials & Basic Info page in the developer console) and api_base (https://open.larksuite.com for Lark)",
			ZH: "飞书没有返回 tenant access token：%v；请检查 [bot] 的 app_id 和 app_secret（开发者后台中应用的“凭证与基础信息”页面）以及 api_base（Lark 国际版为 https://open.larksuite.com）",
		},
	}
}
