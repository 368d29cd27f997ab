package eval

import "hermes/backend/i18n"

func init() { i18n.Register(evalMessages) }

func evalMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"eval.suite_unreadable": {EN: "cannot read the suite: %v; check the path", ZH: "无法读取评测套件：%v；请检查路径"},
		"eval.suite_too_large":  {EN: "the suite is larger than %d MB; split it into several suites", ZH: "评测套件超过 %d MB；请拆成几个套件"},
		"eval.suite_not_utf8":   {EN: "the suite is not UTF-8 text; save it as UTF-8", ZH: "评测套件不是 UTF-8 文本；请以 UTF-8 保存"},
		"eval.unknown_key":      {EN: "unknown key %s; see docs/evals.md for the keys a suite has", ZH: "未知的键 %s；套件可用的键见 docs/evals.md"},
		"eval.bad_memory":       {EN: `memory %q is not a mode; use "off" (the default) or "read"`, ZH: `memory %q 无效；请使用 "off"（默认）或 "read"`},
		"eval.bad_approvals":    {EN: `approvals %q is not a mode; use "allow" (the default) or "deny"`, ZH: `approvals %q 无效；请使用 "allow"（默认）或 "deny"`},
		"eval.bad_strategy":     {EN: `strategy %q is not a strategy; use "plan" or "react"`, ZH: `strategy %q 无效；请使用 "plan" 或 "react"`},
		"eval.no_tasks":         {EN: "the suite has no [[task]]; add one with an id, a task and a [[task.check]]", ZH: "套件中没有 [[task]]；请添加一个，写上 id、task 和 [[task.check]]"},
		"eval.no_task_id":       {EN: "a task needs an id, unique in the suite", ZH: "每个任务都需要一个在套件内唯一的 id"},
		"eval.dup_task_id":      {EN: "task id %q is used twice; give each task its own", ZH: "任务 id %q 重复；请给每个任务不同的 id"},
		"eval.no_task_text":     {EN: "task %q has no task; say what the run should do", ZH: "任务 %q 没有 task；请写明运行要做什么"},
		"eval.no_fixture":       {EN: "fixture %s is not a folder (%s); fixtures are relative to the suite's folder", ZH: "夹具 %s 不是文件夹（%s）；夹具路径相对于套件所在文件夹"},
		"eval.no_checks":        {EN: "task %q has no [[task.check]]; add what a run of it must do", ZH: "任务 %q 没有 [[task.check]]；请写明运行必须做到什么"},
		"eval.dup_variant":      {EN: "variant %q is named twice; give each [[variant]] its own name", ZH: "变体 %q 重名；请给每个 [[variant]] 不同的 name"},
		"eval.check_kind": {
			EN: "a check needs exactly one of file, answer_matches, tool, no_tool, judge, or the limits (max_iterations, max_tokens, max_cost, no_guard)",
			ZH: "每个检查必须且只能有以下之一：file、answer_matches、tool、no_tool、judge，或限额（max_iterations、max_tokens、max_cost、no_guard）",
		},
		"eval.file_check":  {EN: "a file check needs exactly one of contains, equals, matches or absent = true", ZH: "文件检查必须且只能有 contains、equals、matches 或 absent = true 之一"},
		"eval.bad_regexp":  {EN: "not a regular expression: %v", ZH: "不是有效的正则表达式：%v"},
		"eval.negative":    {EN: "%s cannot be negative", ZH: "%s 不能为负数"},
		"eval.bad_pass_at": {EN: "pass_at %g is not between 0 and 1", ZH: "pass_at %g 不在 0 与 1 之间"},
		"eval.no_eval":     {EN: "no eval %s in this home; hermes eval list shows them", ZH: "此主目录中没有评测 %s；hermes eval list 可列出全部"},
		"eval.judge_failed": {
			EN: "the judge's model call failed: %v; check [eval] judge_model and its endpoint ([model] timeout bounds the wait), then grade the run again with hermes eval run --resume %s",
			ZH: "评判模型调用失败：%v；请检查 [eval] judge_model 及其模型服务（[model] timeout 限定等待时间），再用 hermes eval run --resume %s 重新评分",
		},
		"eval.judge_no_score": {
			EN: `the judge's answer holds no score: %q; the judge must answer one JSON object {"score": 0 to 1, "reason": "..."}: set [eval] judge_model to a model that follows instructions, then grade the run again with hermes eval run --resume %s`,
			ZH: `评判模型的回答中没有分数：%q；评判模型须只回答一个 JSON 对象 {"score": 0 到 1, "reason": "..."}：请把 [eval] judge_model 设为能遵循指令的模型，再用 hermes eval run --resume %s 重新评分`,
		},
		"eval.queue":      {EN: "the eval queue on NATS ([cluster] nats_url): %v; check that the NATS servers run with JetStream", ZH: "NATS 上的评测队列（[cluster] nats_url）：%v；请确认 NATS 服务在运行且开启了 JetStream"},
		"eval.unattended": {EN: "an eval run has no one to approve it; the suite says approvals = \"deny\", or the call leaves the sandbox", ZH: "评测运行无人审批；套件设置了 approvals = \"deny\"，或该调用会离开沙箱"},
	}
}
