package cli

import (
	"encoding/json"
	"fmt"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
)

// answerQuestion answers a question the run asked (a value the model
// guessed made a call fail): at the terminal when p is set, else by telling
// the run that no one can answer, so the model does not guess again.
func answerQuestion(env *Env, run *agent.Run, e event.Event, p *prompter) {
	var q event.QuestionAskedData
	if json.Unmarshal(e.Data, &q) != nil {
		return
	}
	text := ""
	if p == nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.question.no_terminal", q.Argument, q.Tool))
	} else {
		text = p.question(q.Question)
	}
	run.Controls().Send(agent.Control{Kind: agent.ControlAnswer, QuestionID: q.QuestionID, Text: text})
}

// question shows a question and reads one line; the end of input, or an
// empty line, is no answer.
func (p *prompter) question(text string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n? %s\n%s", text, i18n.T("cli.question.prompt"))
	line, _ := p.line()
	return line
}
