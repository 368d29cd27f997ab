package cli

import "hermes/backend/i18n"

func init() { i18n.Register(updateMessages) }

func updateMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.update": {EN: "update Hermes from its signed feed, or roll back", ZH: "从已签名的更新源升级 Hermes，或回滚"},
		"cli.update.usage": {
			EN: "usage: hermes update [--home DIR] [--config FILE] [--check | --rollback | --clean]",
			ZH: "用法：hermes update [--home 目录] [--config 文件] [--check | --rollback | --clean]",
		},
		"cli.update.flag.config":   {EN: "the config file; default HOME/hermes.toml", ZH: "配置文件；默认为 HOME/hermes.toml"},
		"cli.update.flag.check":    {EN: "only say whether a newer version exists, with its release notes", ZH: "只检查是否有新版本并显示发布说明"},
		"cli.update.flag.rollback": {EN: "put back the version the last update replaced", ZH: "恢复上次更新前的版本"},
		"cli.update.flag.clean":    {EN: "empty the download cache (HOME/updates)", ZH: "清空下载缓存（HOME/updates）"},
		"cli.update.flag.health":   {EN: "answer the updater's health check (used by the updater itself)", ZH: "响应更新程序的健康检查（供更新程序内部使用）"},
		"cli.update.up_to_date":    {EN: "Hermes %s is the newest version", ZH: "Hermes %s 已是最新版本"},
		"cli.update.available":     {EN: "Hermes %s is available (you have %s)", ZH: "Hermes %s 可用（当前为 %s）"},
		"cli.update.downloading":   {EN: "downloading %s (%s)…", ZH: "正在下载 %s（%s）…"},
		"cli.update.applying":      {EN: "verified; checking that %s works on a copy of your config and store, then installing it…", ZH: "校验通过；正在用配置和存储的副本检查 %s 能否正常工作，通过后再安装…"},
		"cli.update.updated": {
			EN: "updated to %s (%s); the previous version is kept for hermes update --rollback",
			ZH: "已更新到 %s（%s）；旧版本已保留，可用 hermes update --rollback 恢复",
		},
		"cli.update.package": {
			EN: "installed by dpkg: install the new .deb. %[1]s belongs to the package manager, so hermes update does not replace it; the new package is downloaded and verified at %[2]s. Install it with\n  %[3]s\nor\n  %[4]s",
			ZH: "由 dpkg 安装：请安装新的 .deb。%[1]s 归包管理器所有，hermes update 不会替换它；新的安装包已下载并校验，位于 %[2]s。请用以下命令安装：\n  %[3]s\n或\n  %[4]s",
		},
		"cli.update.rolled_back": {EN: "rolled back to %s (%s)", ZH: "已回滚到 %s（%s）"},
		"cli.update.cleaned":     {EN: "the download cache is empty; %s freed", ZH: "下载缓存已清空；释放了 %s"},
		"cli.update.err.no_feed": {
			EN: "no update feed is configured; set [update] feed_url in hermes.toml (see docs/updates.md)",
			ZH: "未配置更新源；请在 hermes.toml 中设置 [update] feed_url（见 docs/updates.md）",
		},
		"cli.update.err.dev_build": {
			EN: "this build cannot update itself (%v); install a release build, or rebuild from source",
			ZH: "此版本无法自我更新（%v）；请安装正式发布版，或从源码重新构建",
		},
		"cli.update.err.feed_signature": {
			EN: "the update feed %s is not signed by the trusted key (%v), so nothing was downloaded; if you host your own feed, set [update] public_key to its key",
			ZH: "更新源 %s 的签名与受信任的公钥不符（%v），未下载任何内容；如使用自建更新源，请将 [update] public_key 设为其公钥",
		},
		"cli.update.err.feed": {
			EN: "cannot read the update feed %s (%v); check your connection and [update] feed_url, then try again",
			ZH: "无法读取更新源 %s（%v）；请检查网络连接和 [update] feed_url 后重试",
		},
		"cli.update.err.public_key": {
			EN: "the signing key is not usable (%v); check [update] public_key in hermes.toml",
			ZH: "签名公钥不可用（%v）；请检查 hermes.toml 中的 [update] public_key",
		},
		"cli.update.err.no_platform": {
			EN: "%v; wait for a build for this system, or build Hermes from source",
			ZH: "%v；请等待适用于本系统的版本，或从源码构建 Hermes",
		},
		"cli.update.err.refused": {
			EN: "the download was refused and removed (%v); nothing was changed; try again later, and tell the feed's publisher if it happens again",
			ZH: "下载的文件未通过校验，已删除（%v）；未做任何更改；请稍后重试，如再次出现请告知更新源的发布者",
		},
		"cli.update.err.download": {
			EN: "the download did not finish (%v); run hermes update again and it resumes where it stopped",
			ZH: "下载未完成（%v）；再次运行 hermes update 会从中断处继续",
		},
		"cli.update.err.health": {
			EN: "the new version failed its check (%v), so the version you had is still installed and works as before",
			ZH: "新版本未通过检查（%v），因此仍保留原来的版本，可照常使用",
		},
		"cli.update.err.no_previous": {
			EN: "there is no previous version to roll back to (%v); one is kept by each update",
			ZH: "没有可回滚的旧版本（%v）；每次更新后才会保留旧版本",
		},
		"cli.update.err.none_kept": {
			EN: "there is no previous version to roll back to: each update keeps the version it replaces, and none has been replaced here yet",
			ZH: "没有可回滚的旧版本：每次更新都会保留被替换的版本，而这里还没有版本被替换过",
		},
		"cli.update.err.busy": {
			EN: "another Hermes is updating this home directory (%v); wait for it to finish and try again",
			ZH: "另一个 Hermes 正在更新此主目录（%v）；请等待其完成后重试",
		},
		"cli.update.err.managed": {
			EN: "installed by dpkg (%v), which owns the binary: roll back or update with the package manager, such as sudo apt install ./hermes_VERSION_amd64.deb of the version you want",
			ZH: "由 dpkg 安装（%v），二进制文件归其管理：请用包管理器回滚或更新，例如对所需版本运行 sudo apt install ./hermes_VERSION_amd64.deb",
		},
		"cli.update.err.other": {
			EN: "the update failed (%v); the installed version is unchanged; try again, or run hermes update --clean first",
			ZH: "更新失败（%v）；已安装的版本未改变；请重试，或先运行 hermes update --clean",
		},
	}
}
