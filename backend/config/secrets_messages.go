package config

import "hermes/backend/i18n"

func init() { i18n.Register(secretsMessages) }

func secretsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.endpoint.base_url": {
			EN: `[[model.endpoints]] entry %d has base_url %q, which is not an http or https URL; set it to the endpoint, such as "https://api.deepseek.com/v1"`,
			ZH: `[[model.endpoints]] 第 %d 项的 base_url %q 不是 http 或 https 地址；请设为模型服务地址，例如 "https://api.deepseek.com/v1"`,
		},
		"config.endpoint.twice": {
			EN: "[[model.endpoints]] lists %s twice; keep one entry for it",
			ZH: "[[model.endpoints]] 中 %s 出现了两次；请只保留一项",
		},
		"config.tools.pass_env": {
			EN: `[[tools.mcp]] %s: entry %d of pass_env is not the name of an environment variable; write names such as "GITHUB_TOKEN", never the secret itself`,
			ZH: `[[tools.mcp]] %s：pass_env 的第 %d 项不是环境变量名；请写变量名，例如 "GITHUB_TOKEN"，不要写密钥本身`,
		},
	}
}
