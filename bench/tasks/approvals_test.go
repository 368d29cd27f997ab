package tasks

import (
	"fmt"
	"runtime"
	"testing"
)

// TestApprovals runs the command tasks under the old default (exec =
// "ask", no rules), the same with a person answering "always" (the rules
// kept from task to task), and the new default (exec = "sandbox", the
// commands confined), and keeps the target true: every run succeeds, and
// the new default asks fewer in total, and no more for any task.
func TestApprovals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the tasks' command lines are bash")
	}
	var results []Asked
	asked := map[string]int{}
	byTask := map[string]map[string]int{}
	for _, mode := range ApprovalModes {
		policy := mode.Policy()
		for _, task := range CommandTasks() {
			r := RunApprovals(t, task, mode, policy)
			results = append(results, r)
			asked[mode.Name] += r.Asked
			if byTask[task.Name] == nil {
				byTask[task.Name] = map[string]int{}
			}
			byTask[task.Name][mode.Name] = r.Asked
			if !r.Success {
				t.Errorf("%s under %s failed: %s", task.Name, mode.Name, r.Why)
			}
			if r.Commands == 0 {
				t.Errorf("%s under %s ran no command", task.Name, mode.Name)
			}
		}
	}
	for task, n := range byTask {
		if n["sandbox"] > n["ask"] {
			t.Errorf("%s: the sandbox default asked %d times, the old default %d", task, n["sandbox"], n["ask"])
		}
	}
	if asked["sandbox"] >= asked["ask"] {
		t.Errorf("the sandbox default asked %d times in total, the old default %d: it must ask fewer", asked["sandbox"], asked["ask"])
	}
	if *table || t.Failed() {
		fmt.Print(ApprovalsTable(results))
	}
}
