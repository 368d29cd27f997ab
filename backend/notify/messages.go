package notify

import "hermes/backend/i18n"

func init() { i18n.Register(messages) }

func messages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"notify.title":              {EN: "Hermes — %s", ZH: "Hermes — %s"},
		"notify.body.approval":      {EN: "Waiting for your approval. Click to open the run.", ZH: "等待你的审批。点击打开该运行。"},
		"notify.body.approval_tool": {EN: "Waiting for your approval of %s. Click to open the run.", ZH: "等待你审批 %s。点击打开该运行。"},
		"notify.body.question":      {EN: "Waiting for your answer. Click to open the run.", ZH: "等待你的回答。点击打开该运行。"},
		"notify.body.question_text": {EN: "Asks you: %s", ZH: "向你提问：%s"},
		"notify.body.finished":      {EN: "Finished. Click to read the answer.", ZH: "已完成。点击查看答案。"},
		"notify.body.failed":        {EN: "Failed. Click to see why; it can be resumed.", ZH: "运行失败。点击查看原因；可以继续运行。"},
		"notify.body.guard":         {EN: "Stopped by a guard. Click to see which, and resume or fork it.", ZH: "被护栏停止。点击查看是哪一个，可继续或分叉运行。"},
		"notify.body.limit":         {EN: "Stopped at its limit (iterations or budget). Click to see its best answer.", ZH: "达到上限（迭代次数或预算）后停止。点击查看其最佳答案。"},
		"notify.action.open":        {EN: "Open", ZH: "打开"},
	}
}
