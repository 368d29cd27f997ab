package server

import "hermes/backend/i18n"

func init() { i18n.Register(serverMessages) }

func serverMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"server.unauthorized": {
			EN: "This request has no valid token. Open the URL that `hermes serve` printed (it carries the token), or send Authorization: Bearer TOKEN.",
			ZH: "此请求没有有效的令牌。请打开 `hermes serve` 打印的网址（其中带有令牌），或发送 Authorization: Bearer 令牌。",
		},
		"server.wrong_host": {
			EN: "This Hermes server does not answer to the host %q: a web page may be trying to reach it under another name (DNS rebinding). Open the address `hermes serve` printed (http://127.0.0.1:PORT/ or http://localhost:PORT/); to use another name, start `hermes serve --listen NAME:PORT`.",
			ZH: "此 Hermes 服务不接受主机名 %q：可能有网页正试图以别的名字访问它（DNS 重绑定）。请打开 `hermes serve` 打印的地址（http://127.0.0.1:端口/ 或 http://localhost:端口/）；如要用别的名字，请以 `hermes serve --listen 名字:端口` 启动。",
		},
		"server.cross_origin": {
			EN: "Hermes refused this request because it came from another web page (Origin %q): pages you open must not start or steer your runs. Use the Hermes page itself, or a client outside the browser (hermes run, curl) with Authorization: Bearer TOKEN and Content-Type: application/json.",
			ZH: "Hermes 拒绝了此请求，因为它来自另一个网页（Origin %q）：你打开的网页不得启动或操控你的运行。请使用 Hermes 页面本身，或在浏览器之外用客户端（hermes run、curl）发送 Authorization: Bearer 令牌 与 Content-Type: application/json。",
		},
		"server.cross_site": {
			EN: "Hermes refused this request because the browser says it came from another page (Sec-Fetch-Site: %s): pages you open must not start or steer your runs. Use the Hermes page itself, or a client outside the browser (hermes run, curl) with Authorization: Bearer TOKEN and Content-Type: application/json.",
			ZH: "Hermes 拒绝了此请求，因为浏览器表明它来自另一个网页（Sec-Fetch-Site: %s）：你打开的网页不得启动或操控你的运行。请使用 Hermes 页面本身，或在浏览器之外用客户端（hermes run、curl）发送 Authorization: Bearer 令牌 与 Content-Type: application/json。",
		},
		"server.not_json": {
			EN: "Hermes refused this request: a request that changes something must send Content-Type: application/json (this one sent %q), so that no web page can send it as a form. Add the header, e.g. curl -H 'Content-Type: application/json'; docs/api.md lists the endpoints.",
			ZH: "Hermes 拒绝了此请求：会改变状态的请求必须发送 Content-Type: application/json（此请求发送的是 %q），以免网页以表单形式发送它。请加上该请求头，例如 curl -H 'Content-Type: application/json'；端点见 docs/api.md。",
		},
		"server.bad_json": {EN: "the request body is not the JSON this endpoint takes (%s); see docs/api.md", ZH: "请求体不是该端点接受的 JSON（%s）；请参阅 docs/api.md"},
		"server.no_endpoint": {
			EN: "no API endpoint %s %s; docs/api.md lists them",
			ZH: "没有 API 端点 %s %s；可用端点见 docs/api.md",
		},
		"server.no_stream": {
			EN: "no open stream %q: it closed (the page lost its connection); open GET /api/stream again with sub=RUN:SEQ for each run to go on from",
			ZH: "没有打开的流 %q：它已关闭（页面断开了连接）；请重新打开 GET /api/stream，并为每个要继续的运行带上 sub=运行:序号",
		},
		"server.bad_memory_id": {EN: "%q is not a memory id; ids are the numbers GET /api/memory lists", ZH: "%q 不是记忆编号；编号是 GET /api/memory 列出的数字"},
		"server.no_ui": {
			EN: "This build of Hermes has no web UI. Run scripts/app.sh, or build the UI (npm run build in frontend/) and then Hermes with -tags ui. The API is at /api/runs.",
			ZH: "此 Hermes 版本不含网页界面。请运行 scripts/app.sh，或先构建界面（在 frontend/ 中运行 npm run build），再以 -tags ui 构建 Hermes。API 位于 /api/runs。",
		},
	}
}
