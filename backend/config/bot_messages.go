package config

import "hermes/backend/i18n"

func init() { i18n.Register(botMessages) }

func botMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.bot.platform": {
			EN: `[bot] platform is %q but must be one of %s; change it in hermes.toml`,
			ZH: `[bot] platform 为 %q，但只能是 %s 之一；请在 hermes.toml 中修改`,
		},
		"config.bot.url": {
			EN: "[bot] %s %q is not an http or https URL; set it to an address such as https://example.com/path",
			ZH: "[bot] %s %q 不是 http 或 https 地址；请设为类似 https://example.com/path 的地址",
		},
		"config.bot.path": {
			EN: `[bot] path %q must start with "/", such as "/callback"; change it in hermes.toml`,
			ZH: `[bot] path %q 必须以 "/" 开头，例如 "/callback"；请在 hermes.toml 中修改`,
		},
		"config.bot.missing": {
			EN: "[bot] %s is not set but platform %q needs it; set it in hermes.toml (secrets may be given as an environment variable with the _env key)",
			ZH: "[bot] 未设置 %s，但平台 %q 需要它；请在 hermes.toml 中设置（密钥也可以用带 _env 后缀的键指定环境变量）",
		},
	}
}
