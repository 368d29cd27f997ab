package wecom

import (
	"hermes/backend/config"
	"hermes/backend/i18n"
)

// Keys are WeCom's own keys of [bot], a self-built application's and an
// intelligent bot's alike: the callback's EncodingAESKey (its Token is
// [bot] webhook_secret, which the generic webhook signs with too), and the
// application's company id, secret and AgentId, and how many messages it
// sends one user. Each secret may be given instead as an environment
// reference (secret_env…).
type Keys struct {
	EncodingAESKey    string `toml:"encoding_aes_key"`
	EncodingAESKeyEnv string `toml:"encoding_aes_key_env"`
	CorpID            string `toml:"corp_id"`
	Secret            string `toml:"secret"`
	SecretEnv         string `toml:"secret_env"`
	AgentID           int    `toml:"agent_id"`
	// UserRateLimit is how many messages one user may be sent in any one
	// minute; WeCom drops what goes beyond its own limit of 30.
	UserRateLimit int `toml:"user_rate_limit"`
}

// DefaultUserRateLimit is the default of [bot] user_rate_limit.
const DefaultUserRateLimit = 25

// UserRate is the number of messages one user may be sent per minute.
func (k Keys) UserRate() int {
	if k.UserRateLimit == 0 {
		return DefaultUserRateLimit
	}
	return k.UserRateLimit
}

var keyDocs = map[string]config.Doc{
	"encoding_aes_key": {EN: `WeCom's 43-character EncodingAESKey (platforms "wecom" and "wecom_bot").`,
		ZH: `企业微信的 43 位 EncodingAESKey（平台 "wecom" 和 "wecom_bot"）。`},
	"encoding_aes_key_env": {EN: "The environment variable that holds encoding_aes_key.", ZH: "保存 encoding_aes_key 的环境变量名。"},
	"corp_id":              {EN: `The WeCom company id (CorpID) of a self-built application (platform "wecom").`, ZH: `企业微信自建应用的企业 ID（CorpID）（平台 "wecom"）。`},
	"secret":               {EN: "The self-built application's Secret.", ZH: "自建应用的 Secret。"},
	"secret_env":           {EN: "The environment variable that holds secret.", ZH: "保存 secret 的环境变量名。"},
	"agent_id":             {EN: "The self-built application's AgentId.", ZH: "自建应用的 AgentId。"},
	"user_rate_limit": {EN: "Messages one user may be sent in any one minute (WeCom drops what passes 30).",
		ZH: "每分钟最多发给同一用户的消息数（企业微信会丢弃超过 30 条的部分）。", Shown: DefaultUserRateLimit},
}

// validate checks the values of WeCom's keys in b, whichever platform b
// names. Only the application registers it: the two platforms share the
// keys, and each platform's Validate is run.
func validate(b config.Bot) []error {
	k := config.BotKeys[Keys](b)
	var errs []error
	for _, v := range []struct {
		key string
		n   int
	}{{"user_rate_limit", k.UserRateLimit}, {"agent_id", k.AgentID}} {
		if v.n < 0 {
			errs = append(errs, i18n.Wrap(config.ErrInvalid, "wecom.config.negative", v.key, v.n))
		}
	}
	if k.EncodingAESKey != "" && len(k.EncodingAESKey) != 43 {
		// The length only: the key itself must never appear in a message.
		errs = append(errs, i18n.Wrap(config.ErrInvalid, "wecom.config.aes_key", len(k.EncodingAESKey)))
	}
	return errs
}

func appReady(b config.Bot) []error {
	k := config.BotKeys[Keys](b)
	errs := botReady(b)
	errs = append(errs, b.Missing("corp_id", k.CorpID), b.Missing("secret", k.Secret))
	if k.AgentID <= 0 {
		errs = append(errs, b.Missing("agent_id", ""))
	}
	return errs
}

func botReady(b config.Bot) []error {
	return []error{b.Missing("webhook_secret", b.WebhookSecret), b.Missing("encoding_aes_key", config.BotKeys[Keys](b).EncodingAESKey)}
}

func configMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"wecom.config.negative": {
			EN: "[bot] %s is %d but must be at least 0; change it in hermes.toml",
			ZH: "[bot] %s 为 %d，但至少应为 0；请在 hermes.toml 中修改",
		},
		"wecom.config.aes_key": {
			EN: "[bot] encoding_aes_key has %d characters but must have 43; copy the EncodingAESKey again from the WeCom admin console (the app's API receiving settings)",
			ZH: "[bot] encoding_aes_key 有 %d 个字符，但应为 43 个；请从企业微信管理后台（应用的“接收消息”设置）重新复制 EncodingAESKey",
		},
	}
}
