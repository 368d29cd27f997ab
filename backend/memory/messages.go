package memory

import "hermes/backend/i18n"

func init() {
	i18n.Register(map[string]i18n.Msg{
		"memory.locked": {
			EN: "another Hermes process is using %s; stop it or wait for it to finish, then try again",
			ZH: "另一个 Hermes 进程正在使用 %s；请先停止它或等它结束，然后重试",
		},
	})
}
