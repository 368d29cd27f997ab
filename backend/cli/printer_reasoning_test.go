package cli

import (
	"bytes"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// printReasoning prints one iteration whose model thought before it spoke:
// the streamed reasoning pieces, the streamed text, the decision, the end.
func printReasoning(t *testing.T, o PrinterOptions, pieces []string, text string, d event.ModelDecidedData) string {
	t.Helper()
	var out bytes.Buffer
	p := NewPrinter(&out, o)
	emit := emitTo(t, p)
	emit(event.IterationStarted, 1, event.IterationStartedData{})
	for _, piece := range pieces {
		emit(event.ModelReasoning, 1, event.ModelReasoningData{Text: piece})
	}
	if text != "" {
		emit(event.ModelDelta, 1, event.ModelDeltaData{Text: text})
	}
	emit(event.ModelDecided, 1, d)
	emit(event.RunFinished, 1, event.RunFinishedData{Status: event.StatusFinished, Answer: d.FinalAnswer, Verified: true,
		Totals: event.Totals{Iterations: 1, PromptTokens: 400, CompletionTokens: 60, TotalTokens: 460, ReasoningTokens: 41}})
	p.Flush()
	return out.String()
}

// The reasoning is shown dimmed on a line of its own before the answer: a
// one-line preview, or all of it with --verbose; its tokens are counted on
// the decision's line and in the totals.
func TestPrinter_Reasoning(t *testing.T) {
	useLang(t, i18n.EN)
	pieces := []string{"The user wants ", "a summary.\n\nFirst ", "read a.txt."}
	thought := strings.Join(pieces, "")
	d := event.ModelDecidedData{
		Reasoning: thought, FinalAnswer: "a.txt says hello.",
		Usage: llm.Usage{PromptTokens: 400, CompletionTokens: 60, TotalTokens: 460, ReasoningTokens: 41},
	}

	t.Run("preview", func(t *testing.T) {
		out := printReasoning(t, PrinterOptions{}, pieces, "a.txt says hello.", d)
		want := "  ✻ thinking: The user wants a summary. First read a.txt.\na.txt says hello.\n"
		if !strings.Contains(out, want) {
			t.Errorf("want the reasoning's line, then the answer on its own:\n%q\ngot:\n%s", want, out)
		}
		if !strings.Contains(out, "  400 in · 60 out · 0 ms · 41 thinking\n") {
			t.Errorf("the decision's line does not count the thinking:\n%s", out)
		}
		if !strings.Contains(out, "· 41 thinking\n") {
			t.Errorf("the totals do not count the thinking:\n%s", out)
		}
	})
	t.Run("preview fits the width", func(t *testing.T) {
		long := strings.Repeat("think ", 100)
		out := printReasoning(t, PrinterOptions{Width: 60}, []string{long, long}, "Done.", event.ModelDecidedData{Reasoning: long + long, FinalAnswer: "Done."})
		line := strings.Split(out, "\n")[2]
		if !strings.HasPrefix(line, "  ✻ thinking: think") || width(line) > 60 || !strings.HasSuffix(line, "…") {
			t.Errorf("reasoning line = %q (%d columns), want one line of at most 60 ending in …", line, width(line))
		}
	})
	t.Run("verbose", func(t *testing.T) {
		out := printReasoning(t, PrinterOptions{Verbose: true}, pieces, "a.txt says hello.", d)
		if !strings.Contains(out, "  ✻ thinking: "+thought+"\na.txt says hello.\n") {
			t.Errorf("verbose does not show the whole reasoning:\n%s", out)
		}
	})
	t.Run("not streamed", func(t *testing.T) {
		out := printReasoning(t, PrinterOptions{}, nil, "", d)
		if !strings.Contains(out, "  ✻ thinking: The user wants a summary. First read a.txt.\na.txt says hello.\n") {
			t.Errorf("the decision's reasoning is not shown:\n%s", out)
		}
	})
	t.Run("dimmed", func(t *testing.T) {
		out := printReasoning(t, PrinterOptions{Color: true}, pieces, "a.txt says hello.", d)
		if !strings.Contains(out, "\x1b[2mThe user wants \x1b[0m") {
			t.Errorf("the reasoning is not dimmed:\n%q", out)
		}
		if strings.Contains(out, "\x1b[2ma.txt says hello.") {
			t.Errorf("the answer is dimmed too:\n%q", out)
		}
	})
}
