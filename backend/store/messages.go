package store

import "hermes/backend/i18n"

func init() { i18n.Register(storeMessages) }

func storeMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"memory.locked": {
			EN: "another Hermes process is using %s; stop it or wait for it to finish, then try again",
			ZH: "另一个 Hermes 进程正在使用 %s；请先停止它或等它结束，然后重试",
		},
		"memory.damaged": {
			EN: "the store %s is damaged (%s) and was left as it is; run hermes doctor --salvage to copy what can still be read into a new store (the damaged file is kept beside it)",
			ZH: "存储 %s 已损坏（%s），已原样保留；请运行 hermes doctor --salvage，把仍可读取的内容复制到新的存储中（损坏的文件会保留在旁边）",
		},
	}
}
