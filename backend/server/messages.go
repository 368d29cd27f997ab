package server

import "hermes/backend/i18n"

func init() {
	i18n.Register(map[string]i18n.Msg{
		"server.list_failed": {
			EN: "could not read the run logs (%v); check that the home directory is readable",
			ZH: "无法读取运行日志（%v）；请检查主目录是否可读",
		},
		"server.read_failed": {
			EN: "could not read the run's log: %v",
			ZH: "无法读取该运行的日志：%v",
		},
		"server.no_endpoint": {
			EN: "no API endpoint %s %s; the API has GET /api/runs and GET /api/runs/RUN_ID/events",
			ZH: "没有 API 端点 %s %s；可用的有 GET /api/runs 和 GET /api/runs/RUN_ID/events",
		},
		"server.no_ui": {
			EN: "This build of Hermes has no web UI. Run scripts/app.sh, or build the UI (npm run build in frontend/) and then Hermes with -tags ui. The API is at /api/runs.",
			ZH: "此 Hermes 版本不含网页界面。请运行 scripts/app.sh，或先构建界面（在 frontend/ 中运行 npm run build），再以 -tags ui 构建 Hermes。API 位于 /api/runs。",
		},
	})
}
