package tasks

import (
	"flag"
	"fmt"
	"testing"

	"hermes/backend/agent"
)

var table = flag.Bool("table", false, "print the suite's table (bench/suite.sh)")

// TestSuite runs every task under both strategies and keeps the target
// true: the plan strategy succeeds on every task and takes fewer
// iterations in total than react.
func TestSuite(t *testing.T) {
	tasks := All()
	if len(tasks) < 12 {
		t.Fatalf("the suite has %d tasks, want at least 12", len(tasks))
	}
	var results []Result
	iterations := map[agent.Strategy]int{}
	for _, task := range tasks {
		for _, strategy := range []agent.Strategy{agent.StrategyReact, agent.StrategyPlan} {
			r := Run(t, task, strategy)
			results = append(results, r)
			iterations[strategy] += r.Iterations
			if strategy == agent.StrategyPlan && !r.Success {
				t.Errorf("%s failed under the plan strategy: %s", task.Name, r.Why)
			}
		}
	}
	if iterations[agent.StrategyPlan] >= iterations[agent.StrategyReact] {
		t.Errorf("plan took %d iterations in total, react %d; plan must take fewer", iterations[agent.StrategyPlan], iterations[agent.StrategyReact])
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
