package bot

import "hermes/backend/i18n"

func init() { i18n.Register(botMessages) }

func botMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"bot.help": {
			EN: "Send me a task and I will work on it and answer here. While I work, what you send is added to the task as an instruction.\n/stop — stop the task (it can be resumed)\n/pause — pause at the next step\n/resume — go on after /pause or /stop\n/status — what I am doing\n/pin FACT — keep a fact in the task's context for good\n/new — start a fresh conversation\n/help — this list\n(中文命令：/停止 /暂停 /继续 /状态 /固定 /新会话 /帮助)",
			ZH: "给我发一个任务，我会处理并在这里回复。我工作期间您发来的消息会作为补充指示加入当前任务。\n/停止 — 停止当前任务（之后可以继续）\n/暂停 — 在下一步暂停\n/继续 — 在暂停或停止后继续\n/状态 — 查看我在做什么\n/固定 事实 — 把一条事实固定在任务上下文中，不会被压缩掉\n/新会话 — 开始新的对话\n/帮助 — 显示本说明\n(English: /stop /pause /resume /status /pin /new /help)",
		},
		"bot.injected": {
			EN: "Added to the task I am working on; I will take it into account from the next step.",
			ZH: "已加入正在进行的任务，我会从下一步开始考虑这条指示。",
		},
		"bot.next_task": {
			EN: "I am already giving my answer to the current task, so I cannot add this to it; I will take it as a new task as soon as the current one finishes.",
			ZH: "我已经在给出当前任务的答复，无法再把这条消息加入其中；它将在当前任务结束后作为新任务处理。",
		},
		"bot.carried": {
			EN: "The task ended before it could take your message into account, so I am now working on it as a new task.",
			ZH: "任务在考虑您的消息之前就结束了，我现在把它作为新任务来处理。",
		},
		"bot.question": {
			EN: "❓ The agent asks: %s\nReply with the value to use, or send /stop to stop the task.",
			ZH: "❓ 智能体提问：%s\n请直接回复应使用的值，或发送 /停止 停止任务。",
		},
		"bot.answered": {
			EN: "Thanks; the task goes on with your answer.",
			ZH: "收到，任务将按您的回答继续。",
		},
		"bot.stopping": {
			EN: "Stopping at the next safe point; I will tell you where the task stood.",
			ZH: "将在下一个安全点停止，停止后会告诉您任务进行到了哪里。",
		},
		"bot.pausing":  {EN: "I will pause at the next step. Send /resume to go on.", ZH: "将在下一步暂停。发送 /继续 可以继续。"},
		"bot.resuming": {EN: "Going on.", ZH: "继续执行。"},
		"bot.resumed_run": {
			EN: "Resuming the task from where it stopped (run %s).",
			ZH: "从上次停止的位置继续任务（运行 %s）。",
		},
		"bot.idle":       {EN: "Nothing is running. Send me a task.", ZH: "当前没有正在进行的任务。请给我发一个任务。"},
		"bot.pin_usage":  {EN: "Send /pin followed by the fact to keep, e.g. /pin the budget is 500 EUR.", ZH: "请在 /固定 后写上要保留的事实，例如：/固定 预算是 500 欧元。"},
		"bot.pinned":     {EN: "Pinned: the task will keep this fact in view until it ends.", ZH: "已固定：任务结束前会一直记住这条事实。"},
		"bot.not_paused": {EN: "The task is running, not paused; send /pause first.", ZH: "任务正在运行，并未暂停；请先发送 /暂停。"},
		"bot.nothing_to_resume": {
			EN: "There is nothing to resume: no task of this conversation was stopped. Send me a task.",
			ZH: "没有可以继续的任务：本会话中没有被停止的任务。请给我发一个任务。",
		},
		"bot.new": {
			EN: "Started a fresh conversation; I no longer remember what we said before.",
			ZH: "已开始新的对话，之前的对话内容不再参考。",
		},
		"bot.new_stopped": {
			EN: "Stopped the running task and started a fresh conversation.",
			ZH: "已停止正在进行的任务，并开始新的对话。",
		},
		"bot.status_running": {
			EN: "Working on: %s\nRun %s, step %d, %d tokens so far%s.",
			ZH: "正在处理：%s\n运行 %s，第 %d 步，已用 %d 个令牌%s。",
		},
		"bot.status_paused":    {EN: ", paused (send /resume to go on)", ZH: "，已暂停（发送 /继续 以继续）"},
		"bot.status_last_tool": {EN: ", last tool: %s", ZH: "，最近调用的工具：%s"},
		"bot.status_idle": {
			EN: "Nothing is running. This conversation has %d earlier exchanges; its memory namespace is %s.",
			ZH: "当前没有正在进行的任务。本会话已有 %d 轮对话；记忆空间为 %s。",
		},
		"bot.status_last": {EN: " The last task (run %s) ended: %s.", ZH: "上一个任务（运行 %s）的结果：%s。"},
		"bot.policy.risk": {EN: "a %s tool, which the bot asks about", ZH: "%s 类工具，机器人需要询问"},
		"bot.denied": {
			EN: "I did not run the tool %s: it needs a person's approval (%s), and no one can give it in the chat. To allow it here, add it to allow_tools under [bot] in hermes.toml.",
			ZH: "我没有运行工具 %s：它需要人工批准（%s），而在聊天中无法批准。如需在机器人中允许它，请把它加入 hermes.toml 的 [bot] allow_tools。",
		},
		"bot.change.title": {EN: "It would have changed:", ZH: "它原本会做出这些修改："},
		"bot.denied_escaping": {
			EN: "I did not run the tool %s: the model asked to run it outside the OS sandbox, which only a person at Hermes's window or terminal can approve, each time; allow_tools does not cover it.",
			ZH: "我没有运行工具 %s：模型请求在系统沙箱之外运行它，这只能由在 Hermes 窗口或终端前的人逐次批准；allow_tools 不适用于这种情况。",
		},
		"bot.stopped": {
			EN: "Stopped at step %d (tool calls run: %d, tokens used: %d)%s. Send /resume to go on from there, or send a new task.",
			ZH: "已在第 %d 步停止（调用工具 %d 次，用了 %d 个令牌）%s。发送 /继续 可从这里接着做，或者发一个新任务。",
		},
		"bot.stopped_last_tool": {EN: "; the last tool it ran was %s", ZH: "；最后调用的工具是 %s"},
		"bot.ended": {
			EN: "The task ended without an answer: %s. Send /resume to give it more room, or send a new task.",
			ZH: "任务未能给出答案就结束了：%s。发送 /继续 可让它继续，或者发一个新任务。",
		},
		"bot.failed": {
			EN: "The task failed: %s. Send /resume to try again from the last step.",
			ZH: "任务失败：%s。发送 /继续 可从最后一步重试。",
		},
		"bot.not_started": {
			EN: "I could not start the task: %s. Please send it again in a minute; if this happens again, tell whoever runs the bot (the reason is in its log too).",
			ZH: "任务无法开始：%s。请稍后重新发送；如果再次出现，请告诉机器人的管理员（原因也记录在它的日志中）。",
		},
		"bot.no_workspace": {
			EN: "I could not start the task: your workspace folder could not be made (%s). Please tell whoever runs the bot to check [bot] workspace in hermes.toml and that folder's permissions, then send the task again.",
			ZH: "任务无法开始：无法创建您的工作目录（%s）。请告诉机器人的管理员检查 hermes.toml 中的 [bot] workspace 以及该目录的权限，然后重新发送任务。",
		},
		"bot.not_resumed": {
			EN: "I could not resume the task (run %s): %s. Send the task again to start it afresh.",
			ZH: "无法继续任务（运行 %s）：%s。请重新发送任务，从头开始。",
		},
		"bot.status.max_iterations": {EN: "it used all its steps", ZH: "已用完全部步数"},
		"bot.status.guard":          {EN: "a guard stopped it (%s)", ZH: "被防护规则停止（%s）"},
		"bot.status.budget":         {EN: "it used its token budget", ZH: "已用完令牌预算"},
		"bot.status.finished":       {EN: "answered", ZH: "已回答"},
		"bot.status.stopped":        {EN: "stopped", ZH: "已停止"},
		"bot.status.failed":         {EN: "failed", ZH: "失败"},
		"bot.not_text": {
			EN: "I can only read text messages for now; please send your task as text.",
			ZH: "目前我只能读取文字消息；请用文字发送任务。",
		},
		"bot.busy_closing": {EN: "The bot is restarting; please send that again in a minute.", ZH: "机器人正在重启，请稍后重新发送。"},
	}
}
