package cli

import "hermes/backend/i18n"

func init() { i18n.Register(releaseMessages) }

func releaseMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.release": {EN: "sign a build and publish it in an update feed", ZH: "为构建签名并发布到更新源"},
		"cli.release.usage": {
			EN: "usage: hermes release keygen [--out NAME]\n       hermes release sign --key FILE --version V --url URL [--platform GOOS/GOARCH] [--form binary|installer|package|bundle|headless] [--channel beta] [--notes TEXT] [--notes-zh TEXT] [--feed FILE] FILE",
			ZH: "用法：hermes release keygen [--out 名称]\n      hermes release sign --key 文件 --version 版本 --url 地址 [--platform GOOS/GOARCH] [--form binary|installer|package|bundle|headless] [--channel beta] [--notes 说明] [--notes-zh 中文说明] [--feed 文件] 文件",
		},
		"cli.release.flag.out":      {EN: "write the key pair to NAME.key and NAME.pub", ZH: "将密钥对写入 名称.key 和 名称.pub"},
		"cli.release.flag.key":      {EN: "the minisign private key file", ZH: "minisign 私钥文件"},
		"cli.release.flag.version":  {EN: "the build's version, such as 1.2.0", ZH: "该构建的版本，例如 1.2.0"},
		"cli.release.flag.url":      {EN: "where the file will be downloaded from; relative to the feed's URL, or absolute", ZH: "该文件的下载地址；可相对于更新源地址，也可为绝对地址"},
		"cli.release.flag.platform": {EN: "the build's GOOS/GOARCH", ZH: "该构建的 GOOS/GOARCH"},
		"cli.release.flag.form": {
			EN: "what the file is: binary (a bare binary, what binary and Windows setup installs update from), installer (a Windows setup program), package (a .deb), bundle (a zip of the macOS .app) or headless (a build without the window, what headless installs update from)",
			ZH: "文件类型：binary（单个二进制文件，二进制安装和 Windows 安装程序的安装都从它更新）、installer（Windows 安装程序）、package（.deb 包）、bundle（macOS .app 的 zip）或 headless（不带窗口的构建，无界面安装从它更新）",
		},
		"cli.release.bad_form": {
			EN: "--form %q is not a form; use binary, installer, package, bundle or headless",
			ZH: "--form %q 不是有效的类型；请使用 binary、installer、package、bundle 或 headless",
		},
		"cli.release.flag.channel":  {EN: `"beta" for a pre-release; empty for stable`, ZH: `预发布版填 "beta"；稳定版留空`},
		"cli.release.flag.notes":    {EN: "release notes in English", ZH: "英文发布说明"},
		"cli.release.flag.notes_zh": {EN: "release notes in Chinese", ZH: "中文发布说明"},
		"cli.release.flag.feed":     {EN: "also add the entry to this signed feed file (created if missing) and sign it again", ZH: "同时把该条目加入此已签名的更新源文件（不存在则创建）并重新签名"},
		"cli.release.exists": {
			EN: "%s already exists; choose another name with --out, or move the old key away first",
			ZH: "%s 已存在；请用 --out 换一个名称，或先移走旧密钥",
		},
		"cli.release.write": {EN: "cannot write %s: %v; check the folder is writable", ZH: "无法写入 %s：%v；请检查目录是否可写"},
		"cli.release.read":  {EN: "cannot read %s: %v; check the path", ZH: "无法读取 %s：%v；请检查路径"},
		"cli.release.bad_key": {
			EN: "%s is not a usable minisign private key, or the password is wrong; set %s or type the password when asked",
			ZH: "%s 不是可用的 minisign 私钥，或密码错误；请设置 %s 或在提示时输入密码",
		},
		"cli.release.sign_failed": {EN: "cannot sign %s: %v", ZH: "无法为 %s 签名：%v"},
		"cli.release.bad_feed": {
			EN: "%s is not a feed signed by this key (%v); sign with the key that made it, or start a new feed file",
			ZH: "%s 不是由此密钥签名的更新源（%v）；请用创建它的密钥签名，或使用新的更新源文件",
		},
		"cli.release.feed_written": {EN: "%s now lists %s for %s (%s) and is signed; upload the file first, then the feed", ZH: "%s 已加入 %s（%s，%s）并重新签名；请先上传该文件，再上传更新源"},
		"cli.release.unencrypted": {
			EN: "warning: %s is not encrypted; keep it offline, or make a new one with %s set",
			ZH: "警告：%s 未加密；请离线保管，或设置 %s 后重新生成",
		},
		"cli.release.keys_written": {
			EN: "wrote %s (keep it secret) and %s; users of your feed set [update] public_key = %q",
			ZH: "已写入 %s（请保密）和 %s；使用你的更新源的用户需设置 [update] public_key = %q",
		},
		"cli.release.password":          {EN: "password for the signing key: ", ZH: "签名私钥的密码："},
		"cli.release.password_again":    {EN: "the same password again: ", ZH: "再次输入密码："},
		"cli.release.password_mismatch": {EN: "the two passwords differ; run the command again", ZH: "两次输入的密码不一致；请重新运行命令"},
	}
}
