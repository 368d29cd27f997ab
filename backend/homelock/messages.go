package homelock

import "hermes/backend/i18n"

func init() { i18n.Register(homelockMessages) }

func homelockMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"homelock.owned": {EN: "this home is owned by hermes %s (pid %d)", ZH: "此主目录由 hermes %s（进程 %d）持有"},
		"homelock.lock_failed": {
			EN: "could not write %s: %v; check that the home directory is writable",
			ZH: "无法写入 %s：%v；请检查主目录是否可写",
		},
		"homelock.token_failed": {
			EN: "could not keep the access token in %s: %v; check that the home directory is writable",
			ZH: "无法在 %s 中保存访问令牌：%v；请检查主目录是否可写",
		},
		"homelock.lock_held": {
			EN: "process %d holds this home but does not answer at %s; if it is not Hermes, delete %s and start again",
			ZH: "进程 %d 持有此主目录，但在 %s 没有应答；如果它不是 Hermes，请删除 %s 后重新启动",
		},
		"homelock.lock_contended": {
			EN: "other processes keep taking %s over; start Hermes again once they have settled",
			ZH: "其他进程在反复接管 %s；请稍后再启动 Hermes",
		},
	}
}
