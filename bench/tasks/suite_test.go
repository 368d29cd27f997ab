package tasks

import (
	"flag"
	"fmt"
	"testing"

	"hermes/backend/agent"
)

var table = flag.Bool("table", false, "print the suite's table (bench/suite.sh)")

// MaxTokenRatio is the most tokens the plan strategy may spend on the
// suite, as a multiple of react's.
const MaxTokenRatio = 1.25

// TestSuite runs every task under both strategies and keeps the target
// true: the plan strategy succeeds on every task, takes fewer iterations
// in total than react, and spends at most MaxTokenRatio times its tokens.
func TestSuite(t *testing.T) {
	tasks := All()
	if len(tasks) < 12 {
		t.Fatalf("the suite has %d tasks, want at least 12", len(tasks))
	}
	var results []Result
	iterations, tokens := map[agent.Strategy]int{}, map[agent.Strategy]int{}
	for _, task := range tasks {
		for _, strategy := range []agent.Strategy{agent.StrategyReact, agent.StrategyPlan} {
			r := Run(t, task, strategy)
			results = append(results, r)
			iterations[strategy] += r.Iterations
			tokens[strategy] += r.Tokens
			if strategy == agent.StrategyPlan && !r.Success {
				t.Errorf("%s failed under the plan strategy: %s", task.Name, r.Why)
			}
		}
	}
	if iterations[agent.StrategyPlan] >= iterations[agent.StrategyReact] {
		t.Errorf("plan took %d iterations in total, react %d; plan must take fewer", iterations[agent.StrategyPlan], iterations[agent.StrategyReact])
	}
	if plan, react := tokens[agent.StrategyPlan], tokens[agent.StrategyReact]; float64(plan) > MaxTokenRatio*float64(react) {
		t.Errorf("plan spent %d tokens, react %d: %.2f times, over %.2f", plan, react, float64(plan)/float64(react), MaxTokenRatio)
	}
	if *table || t.Failed() {
		fmt.Print(Table(results))
		for _, r := range results {
			if !r.Success {
				fmt.Printf("%s (%s) failed: %s\n", r.Task, r.Strategy, r.Why)
			}
		}
	}
}
