package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/runner"
)

// judgePrompt is what the judge's model is told; it answers one JSON
// object.
const judgePrompt = `You grade the work of an AI agent against one criterion. Read the task, the agent's final answer and the files in its workspace, then reply with one JSON object and nothing else: {"score": a number from 0 (the criterion is not met at all) to 1 (fully met), "reason": "one sentence"}.`

// Limits of what the judge is shown of a workspace.
const (
	judgeFileBytes  = 4 << 10
	judgeTotalBytes = 24 << 10
)

// ModelJudge grades with a model: judgeModel ([eval] judge_model; "" for
// the variant's model) at the variant's endpoint, else the configured one,
// with the key hermes.toml gives that endpoint.
func ModelJudge(cfg config.Config, getenv func(string) string, judgeModel string, v Variant) Judge {
	model := judgeModel
	if model == "" {
		model = v.Model
	}
	m := runner.ModelSettings(cfg.Model, getenv, runner.Overrides{Model: model, BaseURL: v.BaseURL})
	client := llm.New(llm.Config{
		BaseURL: m.BaseURL, APIKey: m.APIKey, Model: m.Model,
		MaxRetries: cfg.Model.MaxRetries, Timeout: cfg.Model.Timeout.Duration, MaxOutputTokens: 512,
	})
	return func(ctx context.Context, criterion string, t Task, o Outcome) (float64, string, error) {
		zero := float32(0)
		resp, err := client.Chat(ctx, llm.Request{
			Model: m.Model, Temperature: &zero,
			Messages: []llm.Message{
				{Role: llm.RoleSystem, Content: judgePrompt},
				{Role: llm.RoleUser, Content: judgeInput(criterion, t, o)},
			},
		})
		if err != nil {
			return 0, "", err
		}
		return parseVerdict(resp.Content)
	}
}

// judgeInput is the criterion, the task, the answer and the workspace's
// files, each cut to a bound.
func judgeInput(criterion string, t Task, o Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Criterion: %s\n\nTask: %s\n\nFinal answer:\n%s\n\nFiles in the workspace:\n", criterion, t.Task, o.Answer)
	left := judgeTotalBytes
	_ = filepath.WalkDir(o.Workspace, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || left <= 0 {
			return nil
		}
		rel, _ := filepath.Rel(o.Workspace, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		n := min(len(data), judgeFileBytes, left)
		left -= n
		fmt.Fprintf(&b, "\n--- %s (%d bytes)\n%s\n", filepath.ToSlash(rel), len(data), data[:n])
		return nil
	})
	return b.String()
}

// parseVerdict reads the judge's {"score", "reason"} from its reply, which
// may wrap it in prose or a code fence.
func parseVerdict(reply string) (float64, string, error) {
	start, end := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	if start < 0 || end < start {
		return 0, "", &NoScoreError{Reply: clip(reply, 200)}
	}
	var v struct {
		Score  *float64 `json:"score"`
		Reason string   `json:"reason"`
	}
	if err := json.Unmarshal([]byte(reply[start:end+1]), &v); err != nil || v.Score == nil {
		return 0, "", &NoScoreError{Reply: clip(reply, 200)}
	}
	return min(max(*v.Score, 0), 1), v.Reason, nil
}
