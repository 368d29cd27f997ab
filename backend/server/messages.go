package server

import "hermes/backend/i18n"

func init() {
	i18n.Register(map[string]i18n.Msg{
		"server.unauthorized": {
			EN: "This request has no valid token. Open the URL that `hermes serve` printed (it carries the token), or send Authorization: Bearer TOKEN.",
			ZH: "此请求没有有效的令牌。请打开 `hermes serve` 打印的网址（其中带有令牌），或发送 Authorization: Bearer 令牌。",
		},
		"server.bad_json": {EN: "the request body is not the JSON this endpoint takes (%s); see docs/api.md", ZH: "请求体不是该端点接受的 JSON（%s）；请参阅 docs/api.md"},
		"server.no_endpoint": {
			EN: "no API endpoint %s %s; docs/api.md lists them",
			ZH: "没有 API 端点 %s %s；可用端点见 docs/api.md",
		},
		"server.bad_memory_id": {EN: "%q is not a memory id; ids are the numbers GET /api/memory lists", ZH: "%q 不是记忆编号；编号是 GET /api/memory 列出的数字"},
		"server.no_ui": {
			EN: "This build of Hermes has no web UI. Run scripts/app.sh, or build the UI (npm run build in frontend/) and then Hermes with -tags ui. The API is at /api/runs.",
			ZH: "此 Hermes 版本不含网页界面。请运行 scripts/app.sh，或先构建界面（在 frontend/ 中运行 npm run build），再以 -tags ui 构建 Hermes。API 位于 /api/runs。",
		},
	})
}
