package cli

import "hermes/backend/i18n"

func init() { i18n.Register(doctorMessages) }

func doctorMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.doctor": {EN: "check the store, and salvage what can be read of a damaged one", ZH: "检查存储，并从损坏的存储中抢救可读取的内容"},
		"cli.doctor.usage": {
			EN: "usage: hermes doctor [--salvage] [--home DIR]",
			ZH: "用法：hermes doctor [--salvage] [--home 目录]",
		},
		"cli.doctor.flag.salvage": {
			EN: "copy what can be read of a damaged store into a new one; the damaged file is kept as hermes.db.damaged-TIME",
			ZH: "把损坏的存储中可读取的内容复制到新的存储中；损坏的文件保留为 hermes.db.damaged-时间",
		},
		"cli.doctor.no_store": {EN: "there is no store at %s yet; the first run creates it", ZH: "%s 还没有存储；第一次运行时会创建"},
		"cli.doctor.healthy":  {EN: "the store %s is healthy: every page was read (%d keys in %d buckets)", ZH: "存储 %s 完好：所有页面均可读取（%d 个键，%d 个桶）"},
		"cli.doctor.nothing_to_salvage": {
			EN: "nothing to salvage; the store was left as it is",
			ZH: "无需抢救；存储保持原样",
		},
		"cli.doctor.damaged": {
			EN: "the store %s is damaged; %d keys can still be read. The damage:",
			ZH: "存储 %s 已损坏；仍可读取 %d 个键。损坏情况：",
		},
		"cli.doctor.part.file":    {EN: "the file", ZH: "文件本身"},
		"cli.doctor.part.top":     {EN: "every bucket (the top level cannot be read)", ZH: "所有桶（顶层无法读取）"},
		"cli.doctor.part.bucket":  {EN: "bucket %s cannot be read", ZH: "桶 %s 无法读取"},
		"cli.doctor.part.after":   {EN: "%s, the keys after %s cannot be read", ZH: "%s 中 %s 之后的键无法读取"},
		"cli.doctor.part.before":  {EN: "%s, the keys before %s cannot be read", ZH: "%s 中 %s 之前的键无法读取"},
		"cli.doctor.part.between": {EN: "%s, the keys between %s and %s cannot be read", ZH: "%s 中 %s 与 %s 之间的键无法读取"},
		"cli.doctor.how_to_salvage": {
			EN: "nothing was changed. Stop every Hermes that uses this home, then run hermes doctor --salvage to copy what can be read into a new store; the damaged file is kept beside it",
			ZH: "未做任何更改。请先停止使用此主目录的所有 Hermes，然后运行 hermes doctor --salvage，把可读取的内容复制到新的存储中；损坏的文件会保留在旁边",
		},
		"cli.doctor.salvaged": {
			EN: "saved %d keys in %d buckets into a new store at %s",
			ZH: "已把 %d 个键（%d 个桶）保存到 %s 处的新存储",
		},
		"cli.doctor.lost": {
			EN: "what is listed above as unreadable is lost; the run logs under HOME/logs are separate files and were not touched",
			ZH: "上面列出的无法读取的部分已丢失；HOME/logs 下的运行日志是单独的文件，未受影响",
		},
		"cli.doctor.none_lost": {EN: "every key was saved", ZH: "所有键均已保存"},
		"cli.doctor.kept": {
			EN: "the damaged file is kept as %s: keep it until you are sure nothing you need is missing",
			ZH: "损坏的文件保留为 %s：请在确认没有缺少需要的内容之前保留它",
		},
		"cli.doctor.err.salvage": {
			EN: "the salvage did not finish (%v); the damaged store was left as it is; free some disk space or stop the Hermes using it, then run hermes doctor --salvage again",
			ZH: "抢救未完成（%v）；损坏的存储保持原样；请释放磁盘空间或停止正在使用它的 Hermes，然后再次运行 hermes doctor --salvage",
		},
	}
}
