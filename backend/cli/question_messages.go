package cli

import "hermes/backend/i18n"

func init() { i18n.Register(questionMessages) }

func questionMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.question.prompt": {EN: "  answer (Enter if you do not know) > ", ZH: "  请回答（不知道请直接回车）> "},
		"cli.question.no_terminal": {
			EN: "the model asked for the %s of %s and stdin is not a terminal, so no one can answer; it was told not to guess",
			ZH: "模型询问 %[2]s 的参数 %[1]s，但标准输入不是终端，无人可以回答；已告诉模型不要猜测",
		},
	}
}
