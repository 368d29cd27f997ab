// Package recipe holds a tool added as docs/development.md's "Adding a
// tool" says, this file and count_words.md and nothing else, and the test
// that it is then offered wherever built-in tools are.
package recipe

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"hermes/backend/toolbox"
)

//go:embed count_words.md
var countWordsMD string

type countWordsArgs struct {
	Text string `json:"text" description:"The text whose words to count."`
}

func init() {
	toolbox.Register(toolbox.Builtin{Skill: toolbox.SkillFiles, Make: func(toolbox.With) (toolbox.Tool, bool) {
		return toolbox.Func("count_words", countWordsMD, toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a countWordsArgs) (string, error) {
			return fmt.Sprintf("%d words", len(strings.Fields(a.Text))), nil
		}), true
	}})
}
