package runlog

import "hermes/backend/i18n"

func init() { i18n.Register(runlogMessages) }

func runlogMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"runlog.not_found": {
			EN: "no run %s in %s; run `hermes runs` to see the runs",
			ZH: "在 %[2]s 中找不到运行 %[1]s；运行 `hermes runs` 查看所有运行",
		},
		"runlog.corrupt_line": {
			EN: "line %d of the run log is not a valid event (%s); the log was damaged or edited by hand: restore it or remove that line",
			ZH: "运行日志第 %d 行不是有效事件（%s）；日志已损坏或被手动修改：请恢复该文件或删除这一行",
		},
		"runlog.skipped": {
			EN:  "%d run logs could not be read and were left out of the list: %s",
			EN1: "%d run log could not be read and was left out of the list: %s",
			ZH:  "有 %d 个运行日志无法读取，已从列表中略去：%s",
		},
		"runlog.empty": {
			EN: "the log has no run.started event; the run crashed before it began, so the file can be deleted",
			ZH: "日志中没有 run.started 事件；该运行在开始前就崩溃了，可以删除此文件",
		},
		"runlog.bad_cursor": {
			EN: "no run %s to list from; it may have been deleted: list again from the newest",
			ZH: "找不到作为列表起点的运行 %s；它可能已被删除：请从最新的运行重新列出",
		},
		"runlog.artifact_not_found": {
			EN: "no artifact %s; it may have been deleted with its run",
			ZH: "找不到产物 %s；它可能已随所属运行一起被删除",
		},
	}
}
