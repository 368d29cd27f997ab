package agent

import (
	"context"
	"fmt"
	"time"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/llm"
)

// stageAttempts is how many requests a stage's call may take: a reply that
// is not the JSON asked for is sent back once with what is wrong.
const stageAttempts = 2

// stageReply sums a stage's call over its attempts.
type stageReply struct {
	usage    llm.Usage
	latency  time.Duration
	attempts int
	repaired bool
}

func (s stageReply) latencyMS() int64 { return s.latency.Milliseconds() }

// stageCall asks the model for one JSON object, outside the conversation:
// the stage's own system prompt and message, no tools, nothing streamed.
// The reply is repaired like tool arguments (llm.RepairJSON); decode reads
// it and returns what is wrong with it, for the model to fix, or "" when it
// is usable (last says no attempt follows, so decode may settle for less).
// Every request counts in the totals as a stage call.
func (r *Run) stageCall(ctx context.Context, temp tempKind, system, user string, decode func(raw []byte, last bool) string) (stageReply, error) {
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user}}
	var rep stageReply
	problem := ""
	for attempt := 1; attempt <= stageAttempts; attempt++ {
		tokens := 0
		for _, m := range msgs {
			tokens += contextmgr.EstimateMessage(m)
		}
		if err := r.fits(r.builder.Scale(tokens)); err != nil {
			return rep, err
		}
		resp, err := r.setup.Model.Chat(ctx, llm.Request{
			Model: r.setup.ModelName, Messages: msgs, Temperature: r.temperature(temp), TopP: r.topP(temp),
			OnRetry: func(rt llm.Retry) {
				r.publish(event.ModelRetried, event.ModelRetriedData{Attempt: rt.Attempt, WaitMS: rt.Wait.Milliseconds(), Error: rt.Err, Stage: r.stage})
			},
		})
		r.st.Totals.StageCalls++
		rep.attempts = attempt
		if err != nil {
			return rep, err
		}
		r.spend(spent(temp), resp.Usage)
		rep.usage = addUsage(rep.usage, resp.Usage)
		rep.latency += resp.Latency
		fixed, repaired, err := llm.RepairJSON(resp.Content)
		if err != nil {
			problem = "Your reply was not a JSON object (" + err.Error() + ")."
		} else if problem = decode([]byte(fixed), attempt == stageAttempts); problem == "" {
			rep.repaired = repaired
			return rep, nil
		}
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, Content: resp.Content},
			llm.Message{Role: llm.RoleUser, Content: problem + " Reply again with the corrected JSON object and nothing else."})
	}
	return rep, fmt.Errorf("%w: %s", ErrUnreadableReply, problem)
}

func addUsage(a, b llm.Usage) llm.Usage {
	a.PromptTokens += b.PromptTokens
	a.CompletionTokens += b.CompletionTokens
	a.TotalTokens += b.TotalTokens
	a.ReasoningTokens += b.ReasoningTokens
	a.CachedTokens += b.CachedTokens
	return a
}
