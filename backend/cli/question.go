package cli

import (
	"fmt"

	"hermes/backend/i18n"
)

// question shows a question and reads one line; the end of input, or an
// empty line, is no answer.
func (p *prompter) question(text string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n? %s\n%s", text, i18n.T("cli.question.prompt"))
	line, _ := p.line()
	return line
}
