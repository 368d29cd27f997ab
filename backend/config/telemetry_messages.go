package config

import "hermes/backend/i18n"

func init() { i18n.Register(telemetryMessages) }

func telemetryMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.telemetry.endpoint": {
			EN: "[telemetry] otlp_endpoint %q is not an http or https URL; set it to the collector's address, such as http://localhost:4318, or to \"\" to export nothing",
			ZH: "[telemetry] otlp_endpoint %q 不是 http 或 https 地址；请设为采集端地址，例如 http://localhost:4318，或设为 \"\" 表示不导出",
		},
		"config.telemetry.protocol": {
			EN: `[telemetry] protocol is %q but must be "http" or "grpc"; change it in hermes.toml`,
			ZH: `[telemetry] protocol 为 %q，但只能是 "http" 或 "grpc"；请在 hermes.toml 中修改`,
		},
		"config.telemetry.header": {
			EN: "[telemetry] headers_env names the header %q, which is not a header name; write a name such as Authorization",
			ZH: "[telemetry] headers_env 中的请求头名 %q 无效；请写类似 Authorization 的名称",
		},
		"config.telemetry.header_env": {
			EN: "[telemetry] headers_env gives the header %s a value that is not an environment variable's name; put the value in a variable and write its name, such as LANGFUSE_AUTH",
			ZH: "[telemetry] headers_env 中请求头 %s 的值不是环境变量名；请把值放进环境变量，并在此写变量名，例如 LANGFUSE_AUTH",
		},
	}
}
