package config

import "hermes/backend/i18n"

func init() {
	i18n.Register(map[string]i18n.Msg{
		"config.pos": {EN: "line %d, column %d", ZH: "第 %d 行第 %d 列"},
		"config.read": {
			EN: "cannot read the config %s: %v; check that the file is readable, or pass --config with another file",
			ZH: "无法读取配置文件 %s：%v；请检查该文件是否可读，或用 --config 指定其他文件",
		},
		"config.syntax": {
			EN: "%s %s: %s; correct the TOML there and try again",
			ZH: "%s %s：%s；请修正该处的 TOML 语法后重试",
		},
		"config.syntax_path": {
			EN: "%s %s: %s; %s",
			ZH: "%s %s：%s；%s",
		},
		"config.escaped_path": {
			EN: "%s %s: %s holds a control character (%q) made by a backslash escape; %s",
			ZH: "%s %s：%s 中含有由反斜杠转义产生的控制字符（%q）；%s",
		},
		"config.hint.windows_path": {
			EN: `TOML reads backslashes in double quotes as escapes, so write a Windows path in single quotes ('C:\Users\me') or with forward slashes ("C:/Users/me")`,
			ZH: `TOML 会把双引号中的反斜杠当作转义符，Windows 路径请用单引号（'C:\Users\me'）或正斜杠（"C:/Users/me"）书写`,
		},
		"config.unknown_key": {
			EN: "%s %s: unknown key %s; did you mean %s?",
			ZH: "%s %s：未知的键 %s；您是想写 %s 吗？",
		},
		"config.unknown_key_list": {
			EN: "%s %s: unknown key %s; the keys there are: %s",
			ZH: "%s %s：未知的键 %s；此处可用的键有：%s",
		},
		"config.wrong_type": {
			EN: "%s %s: %s must be %s, such as %s, not %s",
			ZH: "%s %s：%s 应为%s，例如 %s，而不是%s",
		},
		"config.bad_duration": {
			EN: `%s %s: %s must be a duration such as "30s", "2m" or "1h30m", not %q`,
			ZH: `%s %s：%s 应为时长，例如 "30s"、"2m" 或 "1h30m"，而不是 %q`,
		},
		"config.type.integer":  {EN: "an integer", ZH: "整数"},
		"config.type.float":    {EN: "a number", ZH: "数字"},
		"config.type.string":   {EN: "a string", ZH: "字符串"},
		"config.type.boolean":  {EN: "a boolean", ZH: "布尔值"},
		"config.type.duration": {EN: "a duration string", ZH: "时长字符串"},
		"config.type.table":    {EN: "a table", ZH: "表"},
		"config.type.array":    {EN: "an array", ZH: "数组"},
		"config.type.datetime": {EN: "a date or time", ZH: "日期或时间"},
		"config.invalid.min": {
			EN: "%s is %d but must be at least %d; change it in hermes.toml",
			ZH: "%s 为 %d，但至少应为 %d；请在 hermes.toml 中修改",
		},
		"config.invalid.duration": {
			EN: `%s is %s but must be longer than zero, such as "30s"; change it in hermes.toml`,
			ZH: `%s 为 %s，但必须大于零，例如 "30s"；请在 hermes.toml 中修改`,
		},
		"config.invalid.base_url": {
			EN: "[model] base_url %q is not an http or https URL; set it to the endpoint, such as https://api.openai.com/v1",
			ZH: "[model] base_url %q 不是 http 或 https 地址；请设为模型服务地址，例如 https://api.openai.com/v1",
		},
		"config.invalid.model": {
			EN: "[model] model is empty; set it to a model name, such as gpt-4o-mini",
			ZH: "[model] model 为空；请设为模型名称，例如 gpt-4o-mini",
		},
		"config.invalid.version": {
			EN: "the config has version %d, but this Hermes understands up to version %d; update Hermes or set version = %d",
			ZH: "配置文件的版本为 %d，但此 Hermes 最高只支持版本 %d；请升级 Hermes 或设置 version = %d",
		},
		"config.home.none": {
			EN: "cannot find your home directory; set HERMES_HOME or pass --home",
			ZH: "找不到您的用户主目录；请设置 HERMES_HOME 或使用 --home",
		},
		"config.home.create": {
			EN: "cannot use %s as the Hermes home: %v; pass --home with a directory you can write to",
			ZH: "无法将 %s 用作 Hermes 主目录：%v；请用 --home 指定一个可写的目录",
		},
	})
}
