package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/llm"
)

// jsonReply is a turn under the JSON protocol: the calls it makes (at most
// one), or the final answer as text, and the plan strategy's meta.
type jsonReply struct {
	calls []llm.ToolCall
	text  string
	meta  *callMeta
}

// parseJSONReply reads {thought, action, action_input, finished} from a
// reply, repairing it as tool arguments are repaired. It returns what is
// wrong with a reply it cannot read.
func parseJSONReply(content string, iteration int) (jsonReply, string) {
	fixed, _, err := llm.RepairJSON(content)
	if err != nil {
		return jsonReply{}, err.Error()
	}
	var raw struct {
		Thought     string          `json:"thought"`
		Action      string          `json:"action"`
		ActionInput json.RawMessage `json:"action_input"`
		Finished    bool            `json:"finished"`
		callMeta
	}
	if err := json.Unmarshal([]byte(fixed), &raw); err != nil {
		return jsonReply{}, "it does not have the fields thought, action, action_input and finished: " + err.Error()
	}
	action := strings.TrimSpace(raw.Action)
	if raw.Finished || action == "" || action == "final_answer" || action == "finish" {
		answer := textOf(raw.ActionInput)
		if answer == "" {
			answer = raw.Thought
		}
		if strings.TrimSpace(answer) == "" {
			return jsonReply{}, "it finishes without an answer in action_input"
		}
		return jsonReply{text: answer}, ""
	}
	args := strings.TrimSpace(string(raw.ActionInput))
	var s string
	switch {
	case args == "" || args == "null":
		args = "{}"
	case json.Unmarshal(raw.ActionInput, &s) == nil:
		args = s // arguments written as a JSON string
	}
	var meta *callMeta
	if len(raw.Step) > 0 || raw.StepStatus != "" || raw.ServesGoal != "" || len(raw.Provenance) > 0 {
		m := raw.callMeta
		m.Provenance = normalProvenance(m.Provenance)
		meta = &m
	}
	return jsonReply{
		calls: []llm.ToolCall{{ID: fmt.Sprintf("call_%d_1", iteration), Name: action, Arguments: args}},
		text:  raw.Thought,
		meta:  meta,
	}, ""
}

// textOf is an action_input as answer text: a string as it is, an object's
// "answer", or the JSON itself.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Answer string `json:"answer"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Answer != "" {
		return obj.Answer
	}
	return string(raw)
}

// jsonWire rewrites the conversation for a model without tool calls: an
// assistant turn is sent as the text it wrote, and a tool result as a user
// message naming the tool.
func jsonWire(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	for i, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			out[i] = llm.Message{Role: llm.RoleAssistant, Content: m.Content}
		case m.Role == llm.RoleTool:
			out[i] = llm.Message{Role: llm.RoleUser, Content: "Result of " + m.Name + ":\n" + m.Content}
		default:
			out[i] = m
		}
	}
	return out
}
