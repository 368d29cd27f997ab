package toolbox

import "hermes/backend/i18n"

func init() { i18n.Register(manifestMessages) }

// manifestMessages are the mistakes a skill's author reads when a
// skill.json or SKILL.md cannot be used (the catalog names the file).
func manifestMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"toolbox.manifest.syntax":          {EN: "not a valid skill.json: line %d, column %d: %s", ZH: "不是有效的 skill.json：第 %d 行第 %d 列：%s"},
		"toolbox.manifest.unknown_key":     {EN: "not a valid skill.json: unknown field %q (did you mean %q?)", ZH: "不是有效的 skill.json：未知字段 %q（是否想写 %q？）"},
		"toolbox.manifest.unknown_key_any": {EN: "not a valid skill.json: unknown field %q; docs/tools.md lists the keys a skill.json takes", ZH: "不是有效的 skill.json：未知字段 %q；skill.json 可用的键见 docs/tools.md"},
		"toolbox.manifest.type":            {EN: "not a valid skill.json: %q must be %s, not %s", ZH: "不是有效的 skill.json：%q 应为%s，而不是%s"},
		"toolbox.manifest.truncated":       {EN: "not a valid skill.json: it ends before its JSON does; look for a missing } or ]", ZH: "不是有效的 skill.json：文件在 JSON 结束之前就结束了；请检查是否缺少 } 或 ]"},
		"toolbox.manifest.invalid":         {EN: "not a valid skill.json: %s", ZH: "不是有效的 skill.json：%s"},
		"toolbox.manifest.kind.string":     {EN: "a string", ZH: "字符串"},
		"toolbox.manifest.kind.number":     {EN: "a number", ZH: "数字"},
		"toolbox.manifest.kind.list":       {EN: "a list", ZH: "列表"},
		"toolbox.manifest.kind.object":     {EN: "an object", ZH: "对象"},
		"toolbox.manifest.kind.bool":       {EN: "true or false", ZH: "true 或 false"},
		"toolbox.manifest.kind.null":       {EN: "null", ZH: "null"},

		"toolbox.manifest.name":                {EN: "name %q must be 1 to 64 letters, digits, underscores or hyphens", ZH: "名称 %q 须为 1 到 64 个字母、数字、下划线或连字符"},
		"toolbox.manifest.no_description":      {EN: "the description is empty; say what the skill is for and when to use it", ZH: "描述为空；请写明技能的用途以及何时使用"},
		"toolbox.manifest.runner":              {EN: "runner %q is not builtin, command or mcp", ZH: "runner %q 不是 builtin、command 或 mcp"},
		"toolbox.manifest.offer":               {EN: "offer %q is not always or relevant", ZH: "offer %q 不是 always 或 relevant"},
		"toolbox.manifest.empty_keyword":       {EN: "a keyword is empty; list words that tasks about the skill use", ZH: "有一个关键词为空；请列出与该技能相关的任务会用到的词"},
		"toolbox.manifest.writable":            {EN: `sandbox writable %q is not a folder written in full or under "~/"`, ZH: `sandbox writable %q 不是完整路径或以 "~/" 开头的文件夹`},
		"toolbox.manifest.pass_env":            {EN: `pass_env[%d] is not the name of an environment variable; write names such as "GITHUB_TOKEN", never the secret itself`, ZH: `pass_env[%d] 不是环境变量名；请写变量名（如 "GITHUB_TOKEN"），切勿写密钥本身`},
		"toolbox.manifest.no_tools":            {EN: "a command skill needs at least one tool", ZH: "命令技能至少需要一个工具"},
		"toolbox.manifest.no_mcp":              {EN: `an mcp skill needs "mcp": {"command": ...}`, ZH: `mcp 技能需要 "mcp": {"command": ...}`},
		"toolbox.manifest.mcp_risk":            {EN: "mcp risk %q is not read, write, exec or network", ZH: "mcp risk %q 不是 read、write、exec 或 network"},
		"toolbox.manifest.tool_twice":          {EN: "tool %q is listed twice", ZH: "工具 %q 列出了两次"},
		"toolbox.manifest.tool":                {EN: "tools[%d] (%s): %s", ZH: "tools[%d]（%s）：%s"},
		"toolbox.manifest.tool_name":           {EN: "the name must be 1 to 64 letters, digits, underscores or hyphens", ZH: "名称须为 1 到 64 个字母、数字、下划线或连字符"},
		"toolbox.manifest.risk":                {EN: "risk %q is not read, write, exec or network", ZH: "risk %q 不是 read、write、exec 或 network"},
		"toolbox.manifest.tool_no_description": {EN: "the description is empty; write for the model when to use the tool and what it returns", ZH: "描述为空；请为模型写明何时使用该工具以及它返回什么"},
		"toolbox.manifest.no_risk":             {EN: `no risk; set "risk" to read, write, exec or network`, ZH: `没有 risk；请把 "risk" 设为 read、write、exec 或 network`},
		"toolbox.manifest.no_command":          {EN: `no command; set "command" on the skill or on the tool`, ZH: `没有 command；请在技能或工具上设置 "command"`},
		"toolbox.manifest.timeout":             {EN: `timeout %q is not a duration such as "20s"`, ZH: `timeout %q 不是时长（如 "20s"）`},

		"toolbox.registry.no_description":   {EN: "the description is empty", ZH: "描述为空"},
		"toolbox.registry.no_run":           {EN: "it has no run function", ZH: "它没有运行函数"},
		"toolbox.registry.negative_timeout": {EN: "the timeout is negative", ZH: "超时为负数"},
		"toolbox.schema.none":               {EN: "no parameter schema", ZH: "没有参数 schema"},
		"toolbox.schema.not_object":         {EN: "parameter schema is not a JSON Schema object: %v", ZH: "参数 schema 不是 JSON Schema 对象：%v"},
		"toolbox.schema.type_object":        {EN: `parameter schema must have "type": "object"`, ZH: `参数 schema 必须有 "type": "object"`},
		"toolbox.schema.type":               {EN: `"type" must be a string or a list of strings`, ZH: `"type" 必须是字符串或字符串列表`},
		"toolbox.schema.additional":         {EN: `"additionalProperties" must be a boolean or a schema: %v`, ZH: `"additionalProperties" 必须是布尔值或 schema：%v`},
		"toolbox.schema.unknown_type":       {EN: "%s: unknown type %q", ZH: "%s：未知类型 %q"},
		"toolbox.schema.min_max":            {EN: "%s: minimum is greater than maximum", ZH: "%s：minimum 大于 maximum"},
		"toolbox.schema.min_max_length":     {EN: "%s: minLength is greater than maxLength", ZH: "%s：minLength 大于 maxLength"},
		"toolbox.schema.enum_empty":         {EN: "%s: enum is empty", ZH: "%s：enum 为空"},
		"toolbox.schema.enum_type":          {EN: "%s: enum value %s does not match the type %s", ZH: "%s：enum 中的值 %s 与类型 %s 不符"},
		"toolbox.schema.null_property":      {EN: "%s: property schema is null", ZH: "%s：属性的 schema 为 null"},
		"toolbox.schema.required":           {EN: "%s: required property %q is not among the properties", ZH: "%s：required 中的属性 %q 不在 properties 里"},
		"toolbox.schema.default":            {EN: "%s: default %s does not match the schema", ZH: "%s：default %s 与 schema 不符"},

		"toolbox.manifest.md_no_front":       {EN: "SKILL.md must start with a front matter block between --- lines", ZH: "SKILL.md 必须以两行 --- 之间的 front matter 开头"},
		"toolbox.manifest.md_not_closed":     {EN: "the front matter of SKILL.md has no closing --- line", ZH: "SKILL.md 的 front matter 缺少结尾的 --- 行"},
		"toolbox.manifest.md_no_name":        {EN: "the front matter of SKILL.md has no name", ZH: "SKILL.md 的 front matter 没有 name"},
		"toolbox.manifest.md_no_description": {EN: "the front matter of SKILL.md has no description", ZH: "SKILL.md 的 front matter 没有 description"},
		"toolbox.manifest.md_no_body":        {EN: "SKILL.md has no instructions after its front matter", ZH: "SKILL.md 的 front matter 之后没有说明内容"},
	}
}
