package server

import "hermes/backend/i18n"

func init() { i18n.Register(evalsMessages) }

func evalsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"server.store_owner": {
			EN: "labels and evals are kept by the process that owns the home; ask its local API (the lock's address)",
			ZH: "标记和评测由占用该主目录的进程保存；请向它的本地 API（锁文件中的地址）请求",
		},
		"server.bad_label": {EN: `label is "good", "bad", or "" to take it away`, ZH: `label 应为 "good"、"bad"，或 "" 表示取消`},
	}
}
