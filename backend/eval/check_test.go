package eval_test

import (
	"context"
	"errors"
	"testing"

	"hermes/backend/eval"
)

// judgedTask is a task with an answer check between two judge checks.
func judgedTask(t *testing.T) eval.Task {
	t.Helper()
	s, err := eval.Parse("suite.toml", `name = "j"
[[task]]
id = "a"
task = "say Friday"
  [[task.check]]
  judge = "first"
  pass_at = 0.7
  [[task.check]]
  answer_matches = "Friday"
  [[task.check]]
  judge = "second"
`)
	if err != nil {
		t.Fatal(err)
	}
	return s.Tasks[0]
}

func TestEvaluate_JudgeVerdictKeptApart(t *testing.T) {
	judge := func(_ context.Context, criterion string, _ eval.Task, _ eval.Outcome) (float64, string, error) {
		if criterion == "first" {
			return 0.8, "fine", nil
		}
		return 0.4, "made up", nil
	}
	rs, err := eval.Evaluate(t.Context(), judgedTask(t), eval.Outcome{Answer: "Friday"}, judge)
	if err != nil || len(rs) != 3 {
		t.Fatalf("Evaluate = %+v, %v", rs, err)
	}
	first, second := rs[0], rs[2]
	if !first.Pass || *first.Score != 0.8 || *first.PassAt != 0.7 || first.Reason != "fine" || first.Detail != "score 0.80 (pass at 0.70): fine" {
		t.Errorf("first = %+v", first)
	}
	// pass_at defaults to 0.5.
	if second.Pass || *second.PassAt != 0.5 || second.Reason != "made up" || second.Ungraded {
		t.Errorf("second = %+v", second)
	}
}

func TestEvaluate_JudgeThatCannotGrade(t *testing.T) {
	calls := 0
	judge := func(context.Context, string, eval.Task, eval.Outcome) (float64, string, error) {
		calls++
		return 0, "", eval.ErrJudge
	}
	for name, j := range map[string]eval.Judge{"no score": judge, "no judge": nil} {
		rs, err := eval.Evaluate(t.Context(), judgedTask(t), eval.Outcome{Answer: "Friday"}, j)
		if err == nil || len(rs) != 3 {
			t.Fatalf("%s: Evaluate = %+v, %v", name, rs, err)
		}
		if !rs[0].Ungraded || rs[0].Pass || rs[0].Score != nil || !rs[2].Ungraded {
			t.Errorf("%s: the judge checks = %+v, %+v; want ungraded", name, rs[0], rs[2])
		}
		if !rs[1].Pass {
			t.Errorf("%s: the answer check after the judge did not run: %+v", name, rs[1])
		}
		if eval.Passed(rs) {
			t.Errorf("%s: a run not graded passed", name)
		}
	}
	if calls != 2 {
		t.Errorf("the judge was asked %d times, want once a check", calls)
	}
	if _, err := eval.Evaluate(t.Context(), judgedTask(t), eval.Outcome{}, judge); !errors.Is(err, eval.ErrJudge) {
		t.Errorf("err = %v, want ErrJudge", err)
	}
}
