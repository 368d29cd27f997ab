package cli

import "hermes/backend/i18n"

func init() { i18n.Register(memoryMessages) }

func memoryMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.memory": {EN: "list, show, forget or pin long-term memories", ZH: "列出、查看、删除或固定长期记忆"},
		"cli.memory.usage": {
			EN: "usage: hermes memory [list] [--limit N] [--json] | show ID... | forget ID... | pin [--off] ID... [--home DIR]",
			ZH: "用法：hermes memory [list] [--limit N] [--json] | show ID... | forget ID... | pin [--off] ID... [--home 目录]",
		},
		"cli.memory.flag.json":  {EN: "print the memories as JSON", ZH: "以 JSON 输出记忆"},
		"cli.memory.flag.limit": {EN: "list at most this many memories, newest first (0: all)", ZH: "最多列出这么多条记忆，最新的在前（0 表示全部）"},
		"cli.memory.flag.off":   {EN: "with pin: unpin, so the memory fades like the others", ZH: "与 pin 一起使用：取消固定，使该记忆像其他记忆一样会淡忘"},
		"cli.memory.bad_id":     {EN: "%q is not a memory id; `hermes memory list` shows the ids", ZH: "%q 不是记忆编号；`hermes memory list` 会显示编号"},
		"cli.memory.need_id":    {EN: "hermes memory %s needs the id of a memory; `hermes memory list` shows the ids", ZH: "hermes memory %s 需要记忆编号；`hermes memory list` 会显示编号"},
		"cli.memory.not_found":  {EN: "there is no memory %d; `hermes memory list` shows the ids", ZH: "没有编号为 %d 的记忆；`hermes memory list` 会显示编号"},
		"cli.memory.empty": {
			EN: "no memories yet; finished runs write their outcomes, the files they used and your stated preferences here",
			ZH: "还没有记忆；完成的运行会把结果、用到的文件和你明确表达的偏好写到这里",
		},
		"cli.memory.more":               {EN: "showing %d of %d memories; pass --limit 0 to see all", ZH: "显示了 %d 条记忆，共 %d 条；用 --limit 0 查看全部"},
		"cli.memory.hint":               {EN: "* pinned: never fades, recalled for every task. `hermes memory show ID` prints one whole.", ZH: "* 已固定：不会淡忘，每个任务都会召回。`hermes memory show ID` 打印完整内容。"},
		"cli.memory.forgotten":          {EN: "forgot memory %d", ZH: "已删除记忆 %d"},
		"cli.memory.pinned":             {EN: "pinned memory %d: it never fades and is recalled for every task", ZH: "已固定记忆 %d：它不会淡忘，每个任务都会召回"},
		"cli.memory.unpinned":           {EN: "unpinned memory %d: it fades if no task recalls it", ZH: "已取消固定记忆 %d：若没有任务召回它，它会被淡忘"},
		"cli.memory.col.id":             {EN: "ID", ZH: "编号"},
		"cli.memory.col.kind":           {EN: "KIND", ZH: "类型"},
		"cli.memory.col.created":        {EN: "CREATED", ZH: "创建于"},
		"cli.memory.col.recalled":       {EN: "RECALLED", ZH: "召回"},
		"cli.memory.col.text":           {EN: "TEXT", ZH: "内容"},
		"cli.memory.col.run":            {EN: "RUN", ZH: "来源运行"},
		"cli.memory.col.pinned":         {EN: "PINNED", ZH: "固定"},
		"cli.memory.col.namespace":      {EN: "WHOSE", ZH: "归属"},
		"cli.memory.never":              {EN: "never", ZH: "从未"},
		"cli.memory.recalled_times":     {EN: "last %s, %d times", EN1: "last %s, %d time", ZH: "最近 %s，共 %d 次"},
		"cli.memory.pinned_note":        {EN: "yes: never fades, recalled for every task", ZH: "是：不会淡忘，每个任务都会召回"},
		"cli.memory.col.source":         {EN: "SOURCE", ZH: "来源"},
		"cli.memory.col.why":            {EN: "WHY", ZH: "召回原因"},
		"cli.memory.source.task":        {EN: "the run's task, where you said it should be remembered", ZH: "运行的任务（你在其中说明要记住）"},
		"cli.memory.source.instruction": {EN: "an instruction injected while the run worked, where you said it should be remembered", ZH: "运行期间插入的指令（你在其中说明要记住）"},
		"cli.memory.source.standing":    {EN: "the run's standing instructions", ZH: "运行的常驻指令"},
		"cli.memory.source.result":      {EN: "the run's result", ZH: "运行的结果"},
		"cli.memory.source.unknown":     {EN: "unknown (kept before sources were)", ZH: "未知（在记录来源之前保存）"},
		"cli.memory.why":                {EN: "last recalled by run %s: %s", ZH: "最近一次由运行 %s 召回：%s"},
		"cli.memory.reason.pinned":      {EN: "pinned, so recalled for every task", ZH: "已固定，每个任务都会召回"},
		"cli.memory.reason.preference":  {EN: "a preference, which holds for every task", ZH: "偏好，适用于每个任务"},
		"cli.memory.reason.relevant":    {EN: "matched the task's words %s (%d%% relevant to the task)", ZH: "匹配任务中的词 %s（与任务的相关度 %d%%）"},
		"cli.memory.reason.match":       {EN: "matched the task's words %s (score %.2f)", ZH: "匹配任务中的词 %s（得分 %.2f）"},
		"cli.memory.list_sep":           {EN: ", ", ZH: "、"},
	}
}
