package config

import "hermes/backend/i18n"

func init() { i18n.Register(contextMessages) }

func contextMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.context.compress_at": {
			EN: "[context] compress_at is %v but must be between 0.1 and 0.95 (a share of the context window); change it in hermes.toml",
			ZH: "[context] compress_at 为 %v，但必须在 0.1 到 0.95 之间（占上下文窗口的比例）；请在 hermes.toml 中修改",
		},
		"config.context.memory": {
			EN: `[context] memory is %q but must be "on", "read" or "off"; change it in hermes.toml`,
			ZH: `[context] memory 为 %q，但只能是 "on"、"read" 或 "off"；请在 hermes.toml 中修改`,
		},
	}
}
