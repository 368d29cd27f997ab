package tasks

import (
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/llm/llmtest"
)

// Examples are the tasks that evals/examples/strategies.toml holds as a
// suite of hermes eval: those that need no tools besides Hermes's own.
func Examples() []Task {
	var out []Task
	for _, t := range All() {
		if len(t.Tools) == 0 {
			out = append(out, t)
		}
	}
	return out
}

// Model is one scripted model for the runs of every task of ts, as an
// eval runs them side by side: each request is answered by the model of
// the task whose prompt it holds.
func Model(ts []Task) func(llmtest.Request) llmtest.Step {
	models := make([]*model, len(ts))
	for i := range ts {
		models[i] = &model{task: &ts[i]}
	}
	return func(req llmtest.Request) llmtest.Step {
		for _, m := range models {
			for _, msg := range req.Messages {
				if strings.Contains(msg.Content, m.task.Prompt) {
					return m.answer(req)
				}
			}
		}
		return llmtest.Step{Status: 400, Content: "no task of the suite is in this request"}
	}
}

// WriteFiles writes the task's workspace as it is before a run under dir.
func (t Task) WriteFiles(dir string) error {
	for name, text := range t.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
