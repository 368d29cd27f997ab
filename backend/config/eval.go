package config

// Eval configures hermes eval (docs/evals.md).
type Eval struct {
	// JudgeModel is the model that grades a suite's judge checks; "" is
	// the model of the run it grades.
	JudgeModel string `toml:"judge_model"`
}

// evalDocs adds the documentation of [eval]'s keys to docs, for allDocs.
func evalDocs(docs map[string]keyDoc) {
	docs["eval"] = doc("hermes eval: suites of tasks run as ordinary runs and checked; see docs/evals.md.",
		"hermes eval：把一组任务作为普通运行执行并检查结果；见 docs/evals.md。")
	docs["eval.judge_model"] = doc(`The model that grades a suite's judge checks, at the run's endpoint; "" is the model of the run it grades.`,
		`为套件中 judge 检查打分的模型，使用该运行的模型服务；"" 表示用被评分运行自己的模型。`)
}
