package llm

import "hermes/backend/i18n"

func init() { i18n.Register(llmMessages) }

func llmMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"llm.unreachable": {
			EN: "cannot reach the model endpoint %s (%s): check [model] base_url in hermes.toml, OPENAI_BASE_URL or --base-url, and that the server is running",
			ZH: "无法连接模型服务 %s（%s）：请检查 hermes.toml 中的 [model] base_url、环境变量 OPENAI_BASE_URL 或 --base-url，并确认服务已启动",
		},
		"llm.unauthorized": {
			EN: "the model endpoint %s refused the API key (%s): check [model] api_key / api_key_env in hermes.toml or OPENAI_API_KEY",
			ZH: "模型服务 %s 拒绝了 API 密钥（%s）：请检查 hermes.toml 中的 [model] api_key / api_key_env 或环境变量 OPENAI_API_KEY",
		},
		"llm.model_not_found": {
			EN: "the model endpoint %s does not know the model %q (%s): check [model] model in hermes.toml or --model, and that base_url ends in /v1",
			ZH: "模型服务 %s 找不到模型 %q（%s）：请检查 hermes.toml 中的 [model] model 或 --model，并确认 base_url 以 /v1 结尾",
		},
		"llm.bad_request": {
			EN: "the model endpoint %s rejected the request (%s): check that [model] model supports tool calls and that the conversation fits its context window",
			ZH: "模型服务 %s 拒绝了请求（%s）：请确认 [model] model 支持工具调用，且对话长度没有超出它的上下文窗口",
		},
		"llm.bad_request_reasoning": {
			EN: "the model endpoint %s rejected the request over the model's reasoning (%s): set [model] send_reasoning in hermes.toml (now %q) to \"always\" if the provider asks for the reasoning back, or to \"never\" if it refuses it",
			ZH: "模型服务 %s 因模型的思考内容拒绝了请求（%s）：如果服务商要求回传思考内容，请把 hermes.toml 中的 [model] send_reasoning（当前为 %q）设为 \"always\"；如果它拒绝接收，请设为 \"never\"",
		},
		"llm.rate_limited": {
			EN:  "the model endpoint %s is rate limiting requests (%s, %d attempts): wait a while and try again, or raise the limit with your provider",
			EN1: "the model endpoint %s is rate limiting requests (%s, %d attempt): wait a while and try again, or raise the limit with your provider",
			ZH:  "模型服务 %s 限制了请求频率（%s，共尝试 %d 次）：请稍后再试，或向服务商提高限额",
		},
		"llm.server": {
			EN:  "the model endpoint %s failed (%s, %d attempts): try again later, or check [model] base_url in hermes.toml",
			EN1: "the model endpoint %s failed (%s, %d attempt): try again later, or check [model] base_url in hermes.toml",
			ZH:  "模型服务 %s 出错（%s，共尝试 %d 次）：请稍后再试，或检查 hermes.toml 中的 [model] base_url",
		},
		"llm.reply_too_long": {
			EN: "the model at %s kept answering past %d bytes and was cut off, nothing of that reply was kept: raise [model] max_output_tokens in hermes.toml (now %d) if the answer must be that long, or check that the model is not repeating itself and that its server honours max_tokens",
			ZH: "模型服务 %s 的回复超过了 %d 字节仍未结束，已被截断，这次回复的内容全部丢弃：如果答案确实需要这么长，请调高 hermes.toml 中的 [model] max_output_tokens（当前为 %d）；否则请检查模型是否在不停重复，以及它的服务是否遵守 max_tokens",
		},
		"llm.missing_key": {
			EN: "no API key: set [model] api_key or api_key_env in hermes.toml, or OPENAI_API_KEY",
			ZH: "没有 API 密钥：请在 hermes.toml 中设置 [model] api_key 或 api_key_env，或设置环境变量 OPENAI_API_KEY",
		},
	}
}
