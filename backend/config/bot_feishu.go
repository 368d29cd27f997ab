package config

import "hermes/backend/i18n"

// The Feishu open API's address, and Lark's (its international edition),
// for [bot] api_base.
const (
	DefaultFeishuAPIBase = "https://open.feishu.cn"
	LarkAPIBase          = "https://open.larksuite.com"
)

// feishuReady reports the Feishu settings that are missing, each saying
// where in the developer console the value is found (in the language the
// error is read in). The encrypt key is optional, as it is in Feishu.
func (b Bot) feishuReady() []error {
	var errs []error
	for _, k := range []struct{ key, value, where string }{
		{"app_id", b.AppID, "config.bot.feishu.credentials"},
		{"app_secret", b.AppSecret, "config.bot.feishu.credentials"},
		{"verification_token", b.VerificationToken, "config.bot.feishu.events"},
	} {
		if k.value == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.bot.feishu.missing", k.key, i18n.Errorf(k.where)))
		}
	}
	return errs
}

// Warnings are what [bot] lets the bot start with but leaves open, once
// environment references are resolved (Config.ResolveEnv): a Feishu app
// without an encrypt key, whose events come unsigned, so that the
// verification token is all that proves them Feishu's.
func (b Bot) Warnings() []error {
	if b.PlatformName() == BotFeishu && b.EncryptKey == "" {
		return []error{i18n.Errorf("config.bot.feishu.unsigned", i18n.Errorf("config.bot.feishu.events"))}
	}
	return nil
}

func init() { i18n.Register(botFeishuMessages) }

func botFeishuMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.bot.feishu.missing": {
			EN: `[bot] %s is not set but platform "feishu" needs it; copy it from %s into hermes.toml (a secret may be given as an environment variable with the _env key, such as app_secret_env)`,
			ZH: `[bot] 未设置 %s，但平台 "feishu" 需要它；请从%s复制到 hermes.toml（密钥也可以用带 _env 后缀的键指定环境变量，例如 app_secret_env）`,
		},
		"config.bot.feishu.unsigned": {
			EN: `[bot] encrypt_key is not set, so Feishu's events come unencrypted and unsigned: anyone who learns the verification token can send the bot events that run tasks. Set an Encrypt Key on %s and put it in encrypt_key (or in the variable encrypt_key_env names)`,
			ZH: `[bot] 未设置 encrypt_key，飞书的事件因此不加密、不带签名：任何得知 Verification Token 的人都能向机器人发送事件、让它执行任务。请在%s设置 Encrypt Key，并填入 encrypt_key（或 encrypt_key_env 指定的环境变量）`,
		},
		"config.bot.feishu.credentials": {
			EN: "the app's Credentials & Basic Info page in the Feishu (or Lark) developer console",
			ZH: "飞书开发者后台中应用的“凭证与基础信息”页面",
		},
		"config.bot.feishu.events": {
			EN: "the app's Events & Callbacks > Encryption Strategy page in the Feishu (or Lark) developer console",
			ZH: "飞书开发者后台中应用的“事件与回调 > 加密策略”页面",
		},
	}
}
