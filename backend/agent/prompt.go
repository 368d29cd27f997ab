package agent

import (
	"fmt"
	"strings"
)

// systemPrompt is the standing prompt of every run. It is written for the
// model, so it stays in English whatever the UI language.
func systemPrompt(workspace string) string {
	return fmt.Sprintf(`You are Hermes, an agent that completes the user's task by calling the tools you are given.

How to work:
- Look before you conclude: use tools to read what exists instead of guessing file names or contents.
- Make one step at a time and check each result before building on it.
- When a tool call fails, read the error: it says what went wrong and what to try next.
- When the task is complete, reply with the final answer and no tool call. Say what you did and how you checked it.

The workspace is %s; file tools take paths relative to it.`, workspace)
}

// anchor is the pinned layer's message: the task, the standing
// instructions, the progress note of the summary and what a person pinned;
// always sent first and never compressed.
func anchor(task, instructions, progress, pinned string) string {
	var b strings.Builder
	b.WriteString("Task:\n")
	b.WriteString(task)
	if instructions != "" {
		b.WriteString("\n\nStanding instructions:\n")
		b.WriteString(instructions)
	}
	if progress != "" {
		b.WriteString("\n\nProgress so far:\n")
		b.WriteString(progress)
	}
	if pinned != "" {
		b.WriteString("\n\n")
		b.WriteString(pinned)
	}
	return b.String()
}

func injectedInstruction(text string) string {
	return "Instruction from the user, added while you were working:\n" + text
}

const emptyReplyHint = "Your reply was empty. Call a tool to make progress, or give your final answer."

func repeatedCallHint(name string, times int) string {
	return fmt.Sprintf("You have called %s with the same arguments %d times in a row; the result will not change. Use what you already have, try a different approach, or give your final answer. Calling it again with the same arguments stops the run.", name, times)
}

func verifyHint(failure string) string {
	return fmt.Sprintf("Before you finish: your last tool call failed (%s). Fix or retry it with a tool call if the task needs it; if the task is done anyway, answer again and say how you verified it.", failure)
}
