package cli

import "hermes/backend/i18n"

func init() { i18n.Register(evalMessages) }

func evalMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.eval": {EN: "run a suite of tasks as runs and check them; list, show, add a run as a test case", ZH: "把一组任务作为运行执行并检查；列出、查看评测，把运行加为测试用例"},
		"cli.eval.usage": {
			EN: "usage: hermes eval run SUITE.toml [--model M]... [--base-url URL] [--repeat K] [--parallel N] [--baseline EVAL_ID] [--junit FILE] [--json]\n       hermes eval run --resume EVAL_ID\n       hermes eval list [--json]\n       hermes eval show EVAL_ID [--baseline EVAL_ID] [--json]\n       hermes eval add SUITE.toml RUN_ID\n(each with --home DIR; see docs/evals.md)",
			ZH: "用法：hermes eval run 套件.toml [--model 模型]... [--base-url 地址] [--repeat K] [--parallel N] [--baseline 评测ID] [--junit 文件] [--json]\n      hermes eval run --resume 评测ID\n      hermes eval list [--json]\n      hermes eval show 评测ID [--baseline 评测ID] [--json]\n      hermes eval add 套件.toml 运行ID\n（均可加 --home 目录；见 docs/evals.md）",
		},
		"cli.eval.unknown":       {EN: "hermes eval has no command %q", ZH: "hermes eval 没有 %q 命令"},
		"cli.eval.flag.model":    {EN: "a model to run every task with; give it several times to compare models (each is a variant)", ZH: "用来运行每个任务的模型；多次给出以比较多个模型（每个是一个变体）"},
		"cli.eval.flag.repeat":   {EN: "runs of each task under each variant (agents are random: pass@k and pass^k need k > 1)", ZH: "每个任务在每个变体下运行的次数（智能体有随机性：pass@k 与 pass^k 需要 k > 1）"},
		"cli.eval.flag.parallel": {EN: "runs going on at once; a provider's rate limit lowers it", ZH: "同时进行的运行数；服务商限流时会自动降低"},
		"cli.eval.flag.baseline": {EN: "an earlier eval to compare with: exit 1 only when a task passes less often than there", ZH: "用来对比的先前评测：只有某任务通过率低于它时才以 1 退出"},
		"cli.eval.flag.junit":    {EN: "also write the results to this file as JUnit XML, for CI", ZH: "同时把结果以 JUnit XML 写入该文件，供 CI 使用"},
		"cli.eval.flag.resume":   {EN: "finish the missing runs of this eval (stopped with Ctrl-C)", ZH: "补完该评测缺少的运行（曾被 Ctrl-C 停止）"},
		"cli.eval.flag.json":     {EN: "print the eval as JSON", ZH: "以 JSON 输出评测"},
		"cli.eval.bad_repeat":    {EN: "--repeat %d: give a number from 1 to 1000", ZH: "--repeat %d：请给出 1 到 1000 之间的数"},
		"cli.eval.bad_parallel":  {EN: "--parallel %d: give a number from 1 to 256", ZH: "--parallel %d：请给出 1 到 256 之间的数"},
		"cli.eval.need_suite":    {EN: "hermes eval run needs one suite file (or --resume EVAL_ID)", ZH: "hermes eval run 需要一个套件文件（或 --resume 评测ID）"},
		"cli.eval.need_id":       {EN: "hermes eval show needs an eval id; hermes eval list shows them", ZH: "hermes eval show 需要评测 ID；hermes eval list 可列出"},
		"cli.eval.add_usage":     {EN: "usage: hermes eval add SUITE.toml RUN_ID [--home DIR]", ZH: "用法：hermes eval add 套件.toml 运行ID [--home 目录]"},
		"cli.eval.home_owned": {
			EN: "a %s process (pid %d) owns this home, and an eval keeps its results in its hermes.db: close it, or run the eval with another --home",
			ZH: "一个 %s 进程（pid %d）占用着此主目录，而评测要把结果写入它的 hermes.db：请关闭它，或用另一个 --home 运行评测",
		},
		"cli.eval.store_held": {
			EN: "another process holds hermes.db (a live run or eval); try again when it is over",
			ZH: "另一个进程正占用 hermes.db（有运行或评测在进行）；请在其结束后再试",
		},
		"cli.eval.started":     {EN: "eval %s of %s: %d × %d × %d (tasks × variants × repeats), runs to go: %d", ZH: "评测 %s（%s）：%d 个任务 × %d 个变体 × %d，还有 %d 次运行"},
		"cli.eval.run_started": {EN: "      start %s · %s #%d  run %s", ZH: "      开始 %s · %s #%d  运行 %s"},
		"cli.eval.stopping": {
			EN: "Stopping: no new runs; the live ones stop at their next safe point (Ctrl-C again cancels them)",
			ZH: "正在停止：不再开始新运行；进行中的运行会在下一个安全点停止（再按 Ctrl-C 立即取消）",
		},
		"cli.eval.rate_limited": {
			EN: "      the provider's rate limit failed %s · %s: it starts again in %s, with at most %d runs at once from now",
			ZH: "      服务商限流导致 %s · %s 失败：%s 后重新开始，此后最多同时 %d 个运行",
		},
		"cli.eval.resume_base_url": {
			EN: "variant %s ran at %s, whose URL held a secret that Hermes does not keep: give the full URL again with --base-url",
			ZH: "变体 %s 使用的服务地址 %s 中含有密钥，Hermes 不保存它：请用 --base-url 再次给出完整地址",
		},
		"cli.eval.resume_hint":     {EN: "runs are missing; finish them with: hermes eval run --resume %s", ZH: "还有运行未完成；可用以下命令补完：hermes eval run --resume %s"},
		"cli.eval.pass":            {EN: "pass", ZH: "通过"},
		"cli.eval.fail":            {EN: "FAIL", ZH: "失败"},
		"cli.eval.error":           {EN: "ERROR", ZH: "错误"},
		"cli.eval.ungraded":        {EN: "NOT GRADED", ZH: "未评分"},
		"cli.eval.judged":          {EN: "judge: score %.2f (passes at %.2f): %s", ZH: "评判：得分 %.2f（%.2f 通过）：%s"},
		"cli.eval.title":           {EN: "eval %s · %s · %s", ZH: "评测 %s · %s · %s"},
		"cli.eval.table_header":    {EN: "TASK\tVARIANT\tPASSED\tPASS@%d\tPASS^%d\tMEDIAN\tP95\tTOKENS\tCOST\tNOT GRADED\tERRORS", ZH: "任务\t变体\t通过\tPASS@%d\tPASS^%d\t中位数\tP95\t令牌\t费用\t未评分\t错误"},
		"cli.eval.baseline_header": {EN: "VS BASELINE", ZH: "对比基线"},
		"cli.eval.delta.improved":  {EN: "improved", ZH: "变好"},
		"cli.eval.delta.regressed": {EN: "REGRESSED", ZH: "退步"},
		"cli.eval.delta.same":      {EN: "same", ZH: "持平"},
		"cli.eval.delta.new":       {EN: "new", ZH: "新增"},
		"cli.eval.none":            {EN: "no evals in this home yet; run one with hermes eval run SUITE.toml", ZH: "此主目录中还没有评测；可用 hermes eval run 套件.toml 运行"},
		"cli.eval.list_header":     {EN: "ID\tSUITE\tSTATE\tSTARTED\tPASSED\tFAILED\tNOT GRADED\tERRORS\tBASELINE", ZH: "ID\t套件\t状态\t开始时间\t通过\t失败\t未评分\t错误\t基线"},
		"cli.eval.junit_failed":    {EN: "cannot write the JUnit report %s: %v", ZH: "无法写入 JUnit 报告 %s：%v"},
		"cli.eval.added": {
			EN: "added task %q to %s with %d fixture files; edit its proposed checks, then run hermes eval run on it",
			ZH: "已把任务 %q 加入 %s，夹具含 %d 个文件；请修改建议的检查，再用 hermes eval run 运行",
		},
		"cli.cmd.worker":           {EN: "run the eval runs that hermes eval run --cluster puts on the NATS queue", ZH: "运行 hermes eval run --cluster 放入 NATS 队列的评测运行"},
		"cli.worker.usage":         {EN: "usage: hermes worker [--home DIR] [--config FILE] [--parallel N]", ZH: "用法：hermes worker [--home 目录] [--config 文件] [--parallel N]"},
		"cli.worker.flag.parallel": {EN: "eval runs this worker runs at once", ZH: "此 worker 同时进行的评测运行数"},
		"cli.worker.no_cluster":    {EN: "hermes worker takes eval runs from the NATS queue: set [cluster] nats_url in hermes.toml (docs/cluster.md)", ZH: "hermes worker 从 NATS 队列领取评测运行：请在 hermes.toml 中设置 [cluster] nats_url（见 docs/cluster.md）"},
		"cli.worker.ready":         {EN: "worker on %s: taking eval runs, %d at once (Ctrl-C stops)", ZH: "worker（%s）：正在领取评测运行，同时 %d 个（Ctrl-C 停止）"},
		"cli.worker.stopping":      {EN: "Stopping: no new runs; the live ones stop at their next safe point and go back on the queue", ZH: "正在停止：不再领取新运行；进行中的运行在下一个安全点停止并放回队列"},
		"cli.eval.flag.cluster":    {EN: "put the runs on the NATS queue of [cluster] nats_url, for hermes worker replicas to run", ZH: "把运行放入 [cluster] nats_url 的 NATS 队列，由 hermes worker 副本运行"},
		"cli.eval.cluster_waiting": {EN: "%d runs on the queue; hermes worker replicas run them", ZH: "队列中有 %d 次运行；由 hermes worker 副本运行", EN1: "%d run on the queue; a hermes worker replica runs it"},
		"cli.runs.flag.note":       {EN: "a note on why the run is good or bad", ZH: "说明运行好坏原因的备注"},
		"cli.runs.flag.label":      {EN: "list only the runs labelled good or bad", ZH: "只列出标为 good 或 bad 的运行"},
		"cli.runs.flag.eval":       {EN: "list only the runs of this eval", ZH: "只列出该评测的运行"},
		"cli.runs.none_match":      {EN: "No run matches %s (`hermes runs` lists them all).", ZH: "没有符合 %s 的运行（`hermes runs` 会列出全部运行）。"},
		"cli.runs.label_usage":     {EN: "usage: hermes runs label RUN_ID good|bad|none [--note TEXT] [--home DIR]", ZH: "用法：hermes runs label 运行ID good|bad|none [--note 文字] [--home 目录]"},
		"cli.runs.labelled":        {EN: "run %s labelled %s", ZH: "运行 %s 已标为 %s"},
		"cli.runs.unlabelled":      {EN: "run %s has no label now", ZH: "运行 %s 已取消标记"},
	}
}
