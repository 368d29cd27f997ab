package runner

import "hermes/backend/i18n"

func init() { i18n.Register(runnerMessages) }

func runnerMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"runner.endpoint_key": {
			EN: `the model endpoint %s asks for an API key, and the configured key is sent to [model] base_url only: to give this endpoint a key, add to hermes.toml a [[model.endpoints]] table with base_url = "%s" and api_key_env = the environment variable that holds its key`,
			ZH: `模型服务 %s 需要 API 密钥，而配置的密钥只发给 [model] base_url：如要给这个服务密钥，请在 hermes.toml 中添加 [[model.endpoints]] 表，写上 base_url = "%s"，并用 api_key_env 指定保存其密钥的环境变量`,
		},
		"runner.endpoint_secret": {
			EN: `run %s ran at %s, whose URL held a secret that Hermes does not keep; give the full base URL again (hermes resume --base-url, or the base URL field of Fork), or list it in hermes.toml under [[model.endpoints]]`,
			ZH: `运行 %s 使用的服务地址 %s 中含有密钥，Hermes 不保存它；请再次给出完整的 base URL（hermes resume --base-url，或分叉对话框的接口地址一栏），或在 hermes.toml 的 [[model.endpoints]] 中列出它`,
		},
		"runner.no_task": {EN: "the task is empty; say what the run should do", ZH: "任务为空；请写明这次运行要做什么"},
		"runner.bad_sandbox": {
			EN: `sandbox %q is not a mode; use "workspace", "read-only" or "off"`,
			ZH: `沙箱模式 %q 无效；请使用 "workspace"、"read-only" 或 "off"`,
		},
		"runner.bad_memory": {
			EN: `memory %q is not a mode; use "on" (recall, and keep what the run verified), "read" (recall only) or "off", or leave it empty for [context] memory`,
			ZH: `记忆模式 %q 无效；请使用 "on"（召回，并保存运行验证过的内容）、"read"（只召回）或 "off"，或留空以沿用 [context] memory`,
		},
		"runner.no_workspace": {
			EN: "no workspace: choose the folder the run may work in, or set [agent] workspace in hermes.toml",
			ZH: "没有工作目录：请选择运行可以操作的文件夹，或在 hermes.toml 中设置 [agent] workspace",
		},
		"runner.bad_workspace": {EN: "the workspace %s is not a folder; choose an existing folder", ZH: "工作目录 %s 不是文件夹；请选择一个已存在的文件夹"},
		"runner.fork_workspace": {
			EN: "the run worked in %s, which is no longer a folder; restore it, or choose another folder for the fork",
			ZH: "该运行的工作目录 %s 已不存在；请恢复它，或为分叉选择另一个文件夹",
		},
		"runner.not_live":        {EN: "run %s is not running; resume it first", ZH: "运行 %s 未在进行；请先恢复它"},
		"runner.live":            {EN: "run %s is running; stop it first", ZH: "运行 %s 正在进行；请先停止它"},
		"runner.finished":        {EN: "run %s finished with its answer; fork it to go on from one of its iterations", ZH: "运行 %s 已完成并给出答案；如需继续，请从它的某一轮迭代分叉"},
		"runner.no_vault":        {EN: "no vault is set, so no note can be shown nor edit undone; set [obsidian] vault in hermes.toml", ZH: "未设置笔记库，无法显示笔记或撤销修改；请在 hermes.toml 中设置 [obsidian] vault"},
		"runner.undo_unkept":     {EN: "the edit was undone, but that it was could not be kept (%v); the card may still offer Undo, which would then be refused", ZH: "修改已撤销，但未能记录撤销（%v）；卡片上可能仍显示撤销，再点会被拒绝"},
		"runner.sample":          {EN: "the sample run ships with Hermes and can only be replayed; start a run of your own", ZH: "示例运行随 Hermes 提供，只能回放；请开始你自己的运行"},
		"runner.control.kind":    {EN: "unknown control %q; use pause, resume, stop, cancel, inject, edit, edit_call, pin or answer", ZH: "未知的控制 %q；可用 pause、resume、stop、cancel、inject、edit、edit_call、pin 或 answer"},
		"runner.control.no_pin":  {EN: "pin needs the fact to pin (text) or the index of a message (message)", ZH: "pin 需要要固定的事实（text）或消息的序号（message）"},
		"runner.control.no_text": {EN: "the instruction to inject is empty; write the instruction", ZH: "要插入的指令为空；请写下指令"},
		"runner.control.no_task": {EN: "the edited task is empty; send the whole task, edited", ZH: "编辑后的任务为空；请发送编辑后的完整任务"},
		"runner.control.no_call": {EN: "edit_call needs call_id and the new arguments", ZH: "edit_call 需要 call_id 和新的参数"},
		"runner.bad_decision": {
			EN: "unknown decision %q; use allow_once, allow_run, allow_always or deny",
			ZH: "未知的决定 %q；可用 allow_once、allow_run、allow_always 或 deny",
		},
		"runner.no_approval": {
			EN: "the run is not waiting for approval %s: it was answered already, or the run stopped",
			ZH: "该运行没有在等待审批 %s：它已被回答，或运行已停止",
		},
		"runner.bad_iteration": {EN: "the run has no iteration %d to fork from; pick one of its iterations", ZH: "该运行没有第 %d 轮迭代可供分叉；请选择它已有的迭代"},
		"runner.bad_title":     {EN: "the title is longer than %d characters; shorten it", ZH: "标题超过 %d 个字符；请缩短"},
		"runner.meta_failed":   {EN: "could not save the title: %v; check that the logs folder is writable", ZH: "无法保存标题：%v；请检查日志文件夹是否可写"},
		"runner.delete_failed": {EN: "could not delete run %s: %v", ZH: "无法删除运行 %s：%v"},
		"runner.list_failed": {
			EN: "could not read the run logs (%v); check that the home directory is readable",
			ZH: "无法读取运行日志（%v）；请检查主目录是否可读",
		},
		"runner.closed": {EN: "Hermes is shutting down; start the run after it restarts", ZH: "Hermes 正在关闭；请在重启后再开始运行"},
		"runner.no_checkpoint": {
			EN: "run %s saved no checkpoint, so there is nothing to preview; the preview shows once an iteration has finished",
			ZH: "运行 %s 没有保存检查点，暂无可预览的内容；完成一轮迭代后即可预览",
		},
		"runner.memory_not_found": {EN: "no memory %d: it was forgotten, or never written; reload the list", ZH: "没有编号为 %d 的记忆：它已被遗忘或从未写入；请刷新列表"},
		"runner.config.reloaded":  {EN: "%s changed: runs started from now on use the new settings", ZH: "%s 已更改：此后开始的运行将使用新设置"},
		"runner.config.broken": {
			EN: "%s has a mistake, so Hermes keeps the last good settings; fix the file and save it, and this notice goes away",
			ZH: "%s 有错误，Hermes 继续使用上一次正确的设置；修正并保存该文件后，此提示会自动消失",
		},
		"runner.config.broken_no_good": {
			EN: "%s has a mistake, and no run can start until it is fixed; fix the file and save it, and this notice goes away",
			ZH: "%s 有错误，修正之前无法开始运行；修正并保存该文件后，此提示会自动消失",
		},
	}
}
