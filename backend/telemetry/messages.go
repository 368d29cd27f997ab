package telemetry

import "hermes/backend/i18n"

func init() { i18n.Register(telemetryMessages) }

func telemetryMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"telemetry.no_endpoint": {
			EN: "no OTLP endpoint to export traces to: set [telemetry] otlp_endpoint in hermes.toml, such as http://localhost:4318",
			ZH: "没有导出链路的 OTLP 地址：请在 hermes.toml 中设置 [telemetry] otlp_endpoint，例如 http://localhost:4318",
		},
		"telemetry.endpoint": {
			EN: "[telemetry] otlp_endpoint %q is not an http or https URL; set it to the collector's address, such as http://localhost:4318",
			ZH: "[telemetry] otlp_endpoint %q 不是 http 或 https 地址；请设为采集端地址，例如 http://localhost:4318",
		},
		"telemetry.protocol": {
			EN: `[telemetry] protocol is %q but must be "http" or "grpc"; change it in hermes.toml`,
			ZH: `[telemetry] protocol 为 %q，但只能是 "http" 或 "grpc"；请在 hermes.toml 中修改`,
		},
		"telemetry.export": {
			EN:  "traces: the collector did not take %d spans (%s); runs go on, and their spans are lost until it does: check [telemetry] otlp_endpoint, protocol and headers_env in hermes.toml",
			EN1: "traces: the collector did not take %d span (%s); runs go on, and their spans are lost until it does: check [telemetry] otlp_endpoint, protocol and headers_env in hermes.toml",
			ZH:  "链路：采集端没有接收 %d 个 span（%s）；运行照常进行，在恢复之前这些 span 会丢失：请检查 hermes.toml 中的 [telemetry] otlp_endpoint、protocol 和 headers_env",
		},
	}
}
