package agent

import "hermes/backend/i18n"

func init() { i18n.Register(agentMessages) }

func agentMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"agent.cancelled":               {EN: "cancelled at once (Ctrl-C twice); the unfinished iteration will be done again on resume", ZH: "已立即取消（两次 Ctrl-C）；未完成的迭代会在恢复时重新执行"},
		"agent.stopped":                 {EN: "stopped by the user", ZH: "已被用户停止"},
		"agent.no_checkpoint":           {EN: "run %s has no checkpoint to resume from; run `hermes runs` to see the runs", ZH: "运行 %s 没有可恢复的检查点；运行 `hermes runs` 查看运行记录"},
		"agent.already_finished":        {EN: "run %s has already finished; start a new run with `hermes run`", ZH: "运行 %s 已经完成；请用 `hermes run` 开始新的运行"},
		"agent.unattended_denied":       {EN: "no one is there to approve it (unattended mode); allow the tool in [tools] policy to let it run", ZH: "无人可以批准（无人值守模式）；如需运行，请在 [tools] policy 中允许该工具"},
		"agent.approval_not_saved":      {EN: "the \"always allow\" answer could not be saved (%s); it holds for this call only", ZH: "“始终允许”未能保存（%s）；仅对本次调用有效"},
		"agent.guard.max_iterations":    {EN: "reached the limit of %d iterations; raise [agent] max_iterations or --max-iterations, then `hermes resume`", ZH: "已达到 %d 次迭代上限；请调高 [agent] max_iterations 或 --max-iterations，然后 `hermes resume`"},
		"agent.guard.token_budget":      {EN: "used %d tokens of the run's budget of %d; raise [agent] token_budget to continue", ZH: "已用 %d 个 token，达到本次运行 %d 的预算；如需继续请调高 [agent] token_budget"},
		"agent.guard.repeated_warn":     {EN: "the model called %s with the same arguments %d times in a row; it was told to change approach", ZH: "模型连续 %[2]d 次以相同参数调用 %[1]s；已提示它换一种做法"},
		"agent.guard.repeated_stop":     {EN: "the model called %s with the same arguments %d times in a row after being warned; the run was stopped", ZH: "模型在提醒后仍连续 %[2]d 次以相同参数调用 %[1]s；运行已停止"},
		"agent.guard.tool_failures":     {EN: "the tool %s failed %d times in a row; the run was stopped (the attempts are listed)", ZH: "工具 %s 连续失败 %d 次；运行已停止（尝试记录见下）"},
		"agent.guard.no_progress":       {EN: "%d iterations in a row produced no valid result; the run was stopped", ZH: "连续 %d 次迭代没有得到有效结果；运行已停止"},
		"agent.guard.verify":            {EN: "the model answered right after a failed call (%s); it gets one more turn to check", ZH: "模型在一次失败的调用（%s）之后直接作答；再给它一轮来核实"},
		"agent.guard.summary_failed":    {EN: "folding old messages into the summary failed (%s); nothing was dropped, and it is tried again at the next iteration", ZH: "将较早的消息压缩进摘要失败（%s）；没有丢弃任何内容，下一轮迭代会再试"},
		"agent.guard.memory":            {EN: "long-term memory could not be used (%s); the run goes on without it", ZH: "无法使用长期记忆（%s）；运行将在没有它的情况下继续"},
		"agent.pin.no_message":          {EN: "there is no message %d to pin; the conversation has %d messages (numbered from 0)", ZH: "没有可固定的第 %d 条消息；对话共有 %d 条消息（从 0 开始编号）"},
		"agent.guard.unverified":        {EN: "the answer was given after a failed call (%s) and is marked unverified", ZH: "该答案是在一次失败的调用（%s）之后给出的，标记为未验证"},
		"agent.guard.near_warn":         {EN: "the model called %s on %s %d times in a row with barely changed arguments and learnt nothing new; it was told to change approach", ZH: "模型连续 %[3]d 次以几乎相同的参数对 %[2]s 调用 %[1]s，没有得到新信息；已提示它换一种做法"},
		"agent.guard.near_stop":         {EN: "the model called %s on %s %d times in a row with barely changed arguments after being warned, learning nothing new; the run was stopped", ZH: "模型在提醒后仍连续 %[3]d 次以几乎相同的参数对 %[2]s 调用 %[1]s，没有得到新信息；运行已停止"},
		"agent.guard.unresolved":        {EN: "the answer was given while these calls had been denied, refused or failed and their tools never succeeded afterwards: %s; it is marked unverified", ZH: "给出答案时，以下调用曾被拒绝、驳回或失败，且之后这些工具再未成功：%s；答案标记为未验证"},
		"agent.route.greeting":          {EN: "a greeting needs no tools", ZH: "问候不需要工具"},
		"agent.route.path":              {EN: "the message names a file or a path", ZH: "消息中提到了文件或路径"},
		"agent.route.tools":             {EN: "the message asks for something only tools can do", ZH: "消息要求的事情只有工具能完成"},
		"agent.route.model_direct":      {EN: "the model judged that it needs no tools", ZH: "模型判断不需要工具"},
		"agent.route.model_direct_said": {EN: "the model judged that it needs no tools: %s", ZH: "模型判断不需要工具：%s"},
		"agent.route.model_loop":        {EN: "the model judged that it needs tools", ZH: "模型判断需要工具"},
		"agent.route.model_loop_said":   {EN: "the model judged that it needs tools: %s", ZH: "模型判断需要工具：%s"},
		"agent.route.unreadable":        {EN: "the classification could not be read (%s); the loop can do everything a direct answer can", ZH: "无法读取分类结果（%s）；循环能做直接回答能做的一切"},
		"agent.guard.no_plan":           {EN: "no usable plan could be made (%s); the run goes on without one, acting and observing", ZH: "未能得到可用的计划（%s）；运行将不按计划继续，边做边看"},
		"agent.guard.plan_dropped":      {EN: "steps no tool can do were left out of the plan: %s", ZH: "没有工具能完成的步骤已从计划中去掉：%s"},
		"agent.guard.no_replan":         {EN: "the plan could not be revised (%s); the model goes on with the old one", ZH: "未能修订计划（%s）；模型将按原计划继续"},
		"agent.guard.drift":             {EN: "the decision drifts from the goal: %s; the model was told to return to the plan", ZH: "该决策偏离了目标：%s；已提示模型回到计划"},
		"agent.drift.no_step":           {EN: "it serves step %d, which the plan does not have", ZH: "它服务于第 %d 步，但计划中没有这一步"},
		"agent.drift.tool":              {EN: "it calls %s, which neither step %d nor any step still to do uses", ZH: "它调用了 %s，第 %d 步和其余未完成的步骤都不使用该工具"},
		"agent.drift.reason":            {EN: "its reason (%q) has nothing to do with the task or the plan", ZH: "它给出的理由（%q）与任务和计划无关"},
		"agent.evaluate.unreadable":     {EN: "the check could not be read (%s); the model's own word was taken", ZH: "无法读取检查结果（%s）；采信了模型自己的判断"},
		"agent.over_window":             {EN: "the next request to the model holds about %d tokens, more than its context window of %d, so it was not sent: shorten the task or what it gives the model, set [model] context_window in hermes.toml if the model's window is larger, or use a model with a larger window", ZH: "发给模型的下一个请求约有 %d 个 token，超过了它 %d 的上下文窗口，因此没有发送：请缩短任务或交给模型的内容；如果模型的窗口更大，请在 hermes.toml 中设置 [model] context_window；或者换用窗口更大的模型"},
		"agent.completion.unchecked":    {EN: "the answer could not be checked (%s); it is given back unverified", ZH: "无法检查该答案（%s）；答案按未验证返回"},
		"agent.completion.unreadable":   {EN: "the model's confidence could not be read (%s); the answer met the hard conditions", ZH: "无法读取模型的把握程度（%s）；答案满足了硬性条件"},
		"agent.question":                {EN: "The model guessed %s = %q for %s, and the call failed (%s). What should it use?", ZH: "模型猜测 %[3]s 的参数 %[1]s = %[2]q，调用失败（%[4]s）。应该用什么值？"},
		"agent.guard.unreadable_reply":  {EN: "the model's reply was not the JSON the protocol asks for (%s); it was told the format again", ZH: "模型的回复不是协议要求的 JSON（%s）；已再次告知格式"},
	}
}
