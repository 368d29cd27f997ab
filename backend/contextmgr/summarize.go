package contextmgr

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"hermes/backend/llm"
)

// Chatter asks a model; *llm.Client is one.
type Chatter interface {
	Chat(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Summary is the outcome of one fold.
type Summary struct {
	Text     string
	Progress string // done and remaining, for the anchor
	// Entities is the new entity list: values of the folded messages, the
	// old summary and the old list that the new text lost. Added are those
	// of them that were not on the old list.
	Entities []string
	Added    []string
	Usage    llm.Usage
}

// summaryPrompt is written for the model, so it stays in English.
const summaryPrompt = `You keep the running summary of an agent's work on a task. You get the task, the summary so far, exact values that must be kept, and the oldest messages of the agent's conversation, which are about to be removed from its context. Write a new summary that replaces both the old summary and those messages.

Rules:
- Keep everything the agent may still need: what was done, what was found, what failed and why, decisions, and open questions.
- Copy exactly every number, date, ID, file path and URL that may matter later. Never round, shorten or paraphrase them.
- Stay within about %d words. Leave out narration of each step.

Answer in exactly this form, with nothing before or after:
SUMMARY:
<the summary>
PROGRESS:
Done: <what is finished>
Remaining: <what is left to do for the task>`

// Summarize folds f into the summary of s with one request to model (name
// "" means the client's default model). Nothing in s is changed: the caller
// applies the result with Apply once it has it.
func Summarize(ctx context.Context, model Chatter, name, task string, s *State, opt Options, f Fold) (Summary, error) {
	var in strings.Builder
	fmt.Fprintf(&in, "Task:\n%s\n\nSummary so far:\n", task)
	if s.Summary == "" {
		in.WriteString("(none yet)")
	} else {
		in.WriteString(s.Summary)
	}
	if s.Progress != "" {
		fmt.Fprintf(&in, "\n\nProgress so far:\n%s", s.Progress)
	}
	if len(s.Entities) > 0 {
		fmt.Fprintf(&in, "\n\nExact values to keep:\n%s", strings.Join(s.Entities, "\n"))
	}
	in.WriteString("\n\nMessages to fold, oldest first:")
	var folded strings.Builder
	for _, m := range f.Messages {
		fmt.Fprintf(&folded, "\n\n[%s]\n%s", describe(m), render(m))
	}
	in.WriteString(folded.String())

	msgs := []llm.Message{
		{Role: llm.RoleSystem, Content: fmt.Sprintf(summaryPrompt, opt.summaryBudget()*3/4)},
		{Role: llm.RoleUser, Content: in.String()},
	}
	// A single turn larger than half the window is folded whole; sent, it
	// would be refused after all of it went over the wire.
	if tokens := EstimateMessage(msgs[0]) + EstimateMessage(msgs[1]); opt.Window > 0 && tokens > opt.Window {
		return Summary{}, fmt.Errorf("summarise messages %d to %d: %w (about %d tokens, window %d)", f.From, f.To-1, ErrOverWindow, tokens, opt.Window)
	}
	resp, err := model.Chat(ctx, llm.Request{Model: name, Messages: msgs})
	if err != nil {
		return Summary{}, fmt.Errorf("summarise messages %d to %d: %w", f.From, f.To-1, err)
	}
	text, progress := parseSummary(resp.Content)
	if text == "" || len(resp.ToolCalls) > 0 {
		return Summary{Usage: resp.Usage}, fmt.Errorf("summarise messages %d to %d: %w", f.From, f.To-1, ErrEmptySummary)
	}

	// A summary far over its budget would crowd out what it saves; the
	// values it loses by the cut are caught by the check below.
	text = clipTokens(text, 3*opt.summaryBudget())

	// The check: every value the folded messages, the old summary or the old
	// list held must be in the new text or stay on the list, as the budget
	// allows and the task needs. A random value counts only where the task,
	// a pin or the model's own arguments named it.
	focus := task + "\n" + strings.Join(s.Facts, "\n") + "\n" + arguments(f.Messages)
	want := Entities(s.Summary + "\n" + s.Progress)
	want = append(want, s.Entities...)
	want = append(want, Entities(folded.String())...)
	for _, v := range RandomValues(folded.String()) {
		if strings.Contains(focus, v) {
			want = append(want, v)
		}
	}
	lost := Select(dedupe(Missing(want, text+"\n"+progress)), focus, s.Entities, opt.EntityBudget())
	var added []string
	for _, e := range lost {
		if !slices.Contains(s.Entities, e) {
			added = append(added, e)
		}
	}
	return Summary{Text: text, Progress: progress, Entities: lost, Added: added, Usage: resp.Usage}, nil
}

// arguments are the model's own tool arguments in msgs.
func arguments(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			b.WriteString(c.Arguments)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// clipTokens cuts text to about limit tokens.
func clipTokens(text string, limit int) string {
	n := Estimate(text)
	if limit <= 0 || n <= limit {
		return text
	}
	r := []rune(text)
	return strings.TrimSpace(string(r[:len(r)*limit/n])) + " …"
}

// Apply makes sum the summary of the messages up to f.To.
func (s *State) Apply(f Fold, sum Summary) {
	s.Summary, s.Progress, s.Entities = sum.Text, sum.Progress, sum.Entities
	s.Folded = f.To
	s.RetryAt = 0
}

// parseSummary splits the model's answer into the summary and the progress
// note; an answer that ignored the form is all summary.
func parseSummary(answer string) (text, progress string) {
	text = strings.TrimSpace(answer)
	upper := strings.ToUpper(text)
	if i := strings.Index(upper, "PROGRESS:"); i >= 0 {
		text, progress = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+len("PROGRESS:"):])
	}
	if len(text) >= len("SUMMARY:") && strings.EqualFold(text[:len("SUMMARY:")], "SUMMARY:") {
		text = strings.TrimSpace(text[len("SUMMARY:"):])
	}
	return text, progress
}

func dedupe(list []string) []string {
	seen := make(map[string]bool, len(list))
	out := list[:0:0]
	for _, v := range list {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
