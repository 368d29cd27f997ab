package eval

import "hermes/backend/i18n"

func init() { i18n.Register(caseFileMessages) }

func caseFileMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"eval.case_live": {
			EN: "the run has not finished: save it as a test case once it has ended",
			ZH: "该运行尚未结束：请等它结束后再保存为测试用例",
		},
		"eval.bad_case": {
			EN: "the test case was not saved, the suite would not load: %v; fix the text and save again",
			ZH: "测试用例未保存，套件无法加载：%v；请修改文本后再保存",
		},
		"eval.suite_not_toml": {
			EN: "%s is not a suite: name a .toml file",
			ZH: "%s 不是套件：请指定一个 .toml 文件",
		},
		"eval.suite_outside_home": {
			EN: "%s is outside the home %s: a suite is saved in the home (a relative path is taken from it)",
			ZH: "%s 不在主目录 %s 中：套件只能保存在主目录中（相对路径以主目录为起点）",
		},
		"eval.suite_outside": {
			EN: "%s is outside the home %s and the run's workspace %s: save the suite in one of them (a relative path is taken from the home)",
			ZH: "%s 不在主目录 %s 或该运行的工作区 %s 中：请把套件保存在其中之一（相对路径以主目录为起点）",
		},
		"eval.bad_label_filter": {EN: `label is "good" or "bad": the runs a person labelled so`, ZH: `label 应为 "good" 或 "bad"：即被标为该标签的运行`},
		"eval.bad_label":        {EN: `a label is "good", "bad", or "" to take it away`, ZH: `标记应为 "good"、"bad"，或 "" 表示取消`},
		"eval.not_owner": {
			EN: "labels and evals are kept by the process that owns the home; open the window or hermes serve that owns it",
			ZH: "标记和评测由占用该主目录的进程保存；请打开占用该主目录的窗口或 hermes serve",
		},
	}
}
