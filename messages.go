package main

import "hermes/backend/i18n"

func init() { i18n.Register(messages) }

func messages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"desktop.no_ui": {
			EN: "this build has no desktop UI embedded; build it with scripts/app.sh (or go build -tags desktop,production after npm run build in frontend/)",
			ZH: "此版本未嵌入桌面界面；请用 scripts/app.sh 构建（或在 frontend/ 中运行 npm run build 后执行 go build -tags desktop,production）",
		},
		"desktop.failed": {
			EN: "the desktop window failed: %v; without a display, run it under Xvfb (xvfb-run hermes) or use `hermes serve` and a browser",
			ZH: "桌面窗口出错：%v；如果没有显示器，请在 Xvfb 下运行（xvfb-run hermes），或使用 `hermes serve` 加浏览器",
		},
	}
}
