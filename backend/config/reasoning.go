package config

import "hermes/backend/i18n"

// The values of [model] send_reasoning, as llm.Config.SendReasoning takes them.
const (
	SendReasoningAuto   = "auto"
	SendReasoningAlways = "always"
	SendReasoningNever  = "never"
)

func init() { i18n.Register(reasoningMessages) }

func reasoningMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.model.send_reasoning": {
			EN: `[model] send_reasoning is %q; write "auto" (only to the providers that require it), "always" or "never"`,
			ZH: `[model] send_reasoning 为 %q；请写 "auto"（只回传给要求回传的服务商）、"always" 或 "never"`,
		},
	}
}
