package config

import "hermes/backend/i18n"

func init() { i18n.Register(configMessages) }

func configMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.pos": {EN: "line %d, column %d", ZH: "第 %d 行第 %d 列"},
		"config.read": {
			EN: "cannot read the config %s: %v; check that the file is readable, or pass --config with another file",
			ZH: "无法读取配置文件 %s：%v；请检查该文件是否可读，或用 --config 指定其他文件",
		},
		"config.syntax": {
			EN: "%s %s: %s; correct the TOML there and try again",
			ZH: "%s %s：%s；请修正该处的 TOML 语法后重试",
		},
		"config.too_large": {
			EN: "the config %s is larger than %d KB, which no config needs: it holds settings, not data; take out what does not belong there, or move it aside and write a fresh one with `hermes config init`",
			ZH: "配置文件 %s 超过 %d KB，任何配置都用不了这么大：它只保存设置，不保存数据；请删去不属于配置的内容，或将其移走后用 `hermes config init` 重新生成",
		},
		"config.too_deep": {
			EN: "%s %s: tables and arrays nest more than %d levels deep here, which no setting needs, so the file was not parsed; write the tables there as [table] headers or undo the last edit",
			ZH: "%s %s：此处的表和数组嵌套超过 %d 层，任何设置都用不到，因此没有解析该文件；请把该处的表改写为 [表名] 标题形式，或撤销最近一次修改",
		},
		"config.too_many_levels": {
			EN: "%s %s: the file holds more than %d levels of nested keys by here, far more than any config, so it was not parsed; remove the nested tables that do not belong there, or undo the last edit",
			ZH: "%s %s：到此处为止文件中嵌套的键已超过 %d 层次，远超任何配置，因此没有解析该文件；请删去不属于配置的嵌套表，或撤销最近一次修改",
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
			ZH: "%s %s：未知的键 %s；你是想写 %s 吗？",
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
		"config.invalid.range": {
			EN: "%s is %d but must be between %d and %d; change it in hermes.toml",
			ZH: "%s 为 %d，但应在 %d 到 %d 之间；请在 hermes.toml 中修改",
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
		"config.invalid.mode": {
			EN: `[agent] mode is %q but must be "desktop", "cli" or "bot"; change it in hermes.toml`,
			ZH: `[agent] mode 为 %q，但只能是 "desktop"、"cli" 或 "bot"；请在 hermes.toml 中修改`,
		},
		"config.invalid.env_ref": {
			EN: `%s must be the name of an environment variable (letters, digits and _), such as "%s"; put the secret itself in that variable, not in the file`,
			ZH: `%s 应为环境变量名（字母、数字和 _），例如 "%s"；请把密钥本身放进该环境变量，而不是写在文件里`,
		},
		"config.file.header": {
			EN: "hermes.toml: the configuration of Hermes, shared by the window, `hermes run` and `hermes bot`.\n" +
				"Every setting is optional. A line \"# key = value\" shows the default: remove the \"#\" and change the value to set it.\n" +
				"Secrets: any key X can be given instead as X_env, the name of an environment variable that holds it,\n" +
				"such as api_key_env = \"DEEPSEEK_API_KEY\", so this file holds no secret.\n" +
				"Edits apply while Hermes runs. Check the file with: hermes config check",
			ZH: "hermes.toml：Hermes 的配置文件，桌面窗口、`hermes run` 和 `hermes bot` 共用。\n" +
				"所有设置都是可选的。\"# 键 = 值\" 这样的行给出默认值：去掉 \"#\" 并修改值即可生效。\n" +
				"密钥：任何键 X 都可以改写为 X_env，填保存该值的环境变量名，\n" +
				"例如 api_key_env = \"DEEPSEEK_API_KEY\"，这样本文件中不含任何密钥。\n" +
				"Hermes 运行时修改会自动生效。检查本文件：hermes config check",
		},
		"config.reference.head":         {EN: "| key | default | meaning |", ZH: "| 键 | 默认值 | 说明 |"},
		"config.reference.head_example": {EN: "| key | example | meaning |", ZH: "| 键 | 示例 | 说明 |"},
		"config.file.example":           {EN: "For example:", ZH: "例如："},
		"config.init.exists": {
			EN: "%s already exists; check it with `hermes config check`, or pass --force to replace it (the old file is kept beside it as a .bak)",
			ZH: "%s 已存在；可用 `hermes config check` 检查它，或加 --force 替换（旧文件会以 .bak 备份在旁边）",
		},
		"config.write": {
			EN: "cannot write the config %s: %v; check that its directory is writable",
			ZH: "无法写入配置文件 %s：%v；请检查其所在目录是否可写",
		},
		"config.backup": {
			EN: "cannot keep a backup of the config as %s: %v; nothing was changed; check that the directory is writable",
			ZH: "无法将配置文件备份为 %s：%v；未做任何修改；请检查该目录是否可写",
		},
		"config.migrate": {
			EN: "cannot upgrade the config %s to this version of Hermes: %v; the file was not changed; edit it by hand (see `hermes config init --force` for the current layout)",
			ZH: "无法将配置文件 %s 升级到当前 Hermes 版本：%v；文件未被修改；请手动编辑（当前格式见 `hermes config init --force`）",
		},
		"config.watch.start": {
			EN: "cannot watch the config %s for changes: %v; edits will apply after a restart",
			ZH: "无法监视配置文件 %s 的变化：%v；修改将在重启后生效",
		},
		"config.watch.failed": {
			EN: "watching the config %s failed: %v; edits may apply only after a restart",
			ZH: "监视配置文件 %s 出错：%v；修改可能要重启后才生效",
		},
		"config.watch.removed": {
			EN: "the config %s was removed; the last good settings stay in force until it is back",
			ZH: "配置文件 %s 已被删除；在它恢复之前，继续使用上一份有效的设置",
		},
		"config.invalid_in": {EN: "%s: %v", ZH: "%s：%v"},
		"config.check.missing": {
			EN: "%s does not exist; `hermes config init` writes a commented default there",
			ZH: "%s 不存在；可用 `hermes config init` 在此写入带注释的默认配置",
		},
		"config.at": {EN: "%s %s: %v", ZH: "%s %s：%v"},
		"config.in": {EN: "%s: %v", ZH: "%s：%v"},
		"config.home.none": {
			EN: "cannot find your home directory; set HERMES_HOME or pass --home",
			ZH: "找不到你的用户主目录；请设置 HERMES_HOME 或使用 --home",
		},
		"config.home.create": {
			EN: "cannot use %s as the Hermes home: %v; pass --home with a directory you can write to",
			ZH: "无法将 %s 用作 Hermes 主目录：%v；请用 --home 指定一个可写的目录",
		},
	}
}
