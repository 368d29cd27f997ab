package config

import "hermes/backend/i18n"

func init() { i18n.Register(strategyMessages) }

func strategyMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.agent.strategy": {
			EN: `[agent] strategy is %q; write "plan" (plan, act, check each step) or "react" (act and observe)`,
			ZH: `[agent] strategy 为 %q；请写 "plan"（先计划、再执行并检查每一步）或 "react"（边做边看）`,
		},
		"config.agent.protocol": {
			EN: `[agent] protocol is %q; write "tools" (function calling) or "json" (for models without tool calls)`,
			ZH: `[agent] protocol 为 %q；请写 "tools"（函数调用）或 "json"（用于不支持工具调用的模型）`,
		},
		"config.agent.confidence": {
			EN: "[agent] confidence is %v; write a number from 0 to 1, such as 0.8",
			ZH: "[agent] confidence 为 %v；请写 0 到 1 之间的数，例如 0.8",
		},
		"config.agent.temperature": {
			EN: "[agent.temperature] %s is %v; write a number from 0 to 2",
			ZH: "[agent.temperature] %s 为 %v；请写 0 到 2 之间的数",
		},
		"config.agent.top_p": {
			EN: "[agent.top_p] %s is %v; write a number above 0 and at most 1, or 0 to send none",
			ZH: "[agent.top_p] %s 为 %v；请写大于 0 且不超过 1 的数，或写 0 表示不发送",
		},
	}
}
