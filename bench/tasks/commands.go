package tasks

import (
	"fmt"
	"os/exec"
	"strings"
)

// Tasks that run commands as coding agents do (the tests, grep, git, sed,
// go vet, ls, pipelines and && chains), for the approvals suite: each
// command really runs in the task's workspace, so the files and outputs a
// later step reads are the ones an earlier command left.

// CommandTask is a task of the approvals suite: its workspace may need
// more than files (a git repository), which Setup makes.
type CommandTask struct {
	Task
	Setup func(ws string) error
	// Shows holds, for a command line, what its output must show: that
	// it ran in the task's workspace, after the commands before it.
	Shows map[string]string
}

// CommandTasks is the approvals suite.
func CommandTasks() []CommandTask {
	return []CommandTask{fixFailingTest(), reviewChanges(), listTodos(), renameFunction()}
}

// sh is an execute_command call.
func sh(line string) Call { return C("execute_command", "command", line) }

// inOrder is an Act that makes each call once, in order, then answers.
func inOrder(answer string, work ...Call) func(*Situation) Move {
	return func(s *Situation) Move {
		if c, ok := s.Next(work...); ok {
			return Do(c)
		}
		return Say(answer)
	}
}

const goMod = "module calc\n\ngo 1.22\n"

// fixFailingTest: run the tests, find the bug, fix it with sed, run the
// tests again and vet.
func fixFailingTest() CommandTask {
	answer := "Add subtracted; it adds now, and go test and go vet pass."
	return CommandTask{Task: Task{
		Name:   "fix-failing-test",
		Prompt: "The tests fail. Find out why, fix the code and make sure the tests and go vet pass.",
		Files: map[string]string{
			"go.mod":       goMod,
			"calc.go":      "package calc\n\n// Add returns the sum of a and b.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n",
			"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf(\"Add(2, 3) = %d\", got)\n\t}\n}\n",
		},
		Act: inOrder(answer,
			sh("go test ./... 2>&1 | tail -20"),
			sh(`grep -n "func Add" -A 3 *.go`),
			sh("sed -i 's/return a - b/return a + b/' calc.go"),
			sh("go test ./... 2>&1 | tail -5"),
			sh("go vet ./... && echo vet ok"),
		),
		Check: func(ws, _ string) error { return fileHas(ws, "calc.go", "return a + b") },
	}, Shows: map[string]string{
		"go test ./... 2>&1 | tail -20": "Add(2, 3) = -1",
		`grep -n "func Add" -A 3 *.go`:  "return a - b",
		"go test ./... 2>&1 | tail -5":  "ok  \tcalc",
		"go vet ./... && echo vet ok":   "vet ok",
	}}
}

// reviewChanges: see what changed in a repository and write it up.
func reviewChanges() CommandTask {
	notes := "- main.go: greets by name\n- notes.txt: new\n"
	return CommandTask{
		Task: Task{
			Name:   "review-changes",
			Prompt: "Review the uncommitted changes in this repository and list them in CHANGES.md.",
			Files: map[string]string{
				"main.go":   "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n",
				"README.md": "# greeter\n",
			},
			Act: inOrder("CHANGES.md lists the two changes.",
				sh("git status --short"),
				sh("git diff --stat"),
				sh("git diff -- main.go | head -40"),
				sh("ls -la"),
				sh("cat notes.txt | head -5"),
				C("write_file", "path", "CHANGES.md", "content", notes),
			),
			Check: func(ws, _ string) error { return fileIs(ws, "CHANGES.md", notes) },
		},
		Setup: func(ws string) error {
			steps := [][]string{
				{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=bench", "-c", "user.email=bench@example.org", "commit", "-qm", "first"},
			}
			for _, args := range steps {
				if err := git(ws, args...); err != nil {
					return err
				}
			}
			return writeFiles(ws, map[string]string{
				"main.go":   "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"hello\", os.Args[1])\n}\n",
				"notes.txt": "greet by name\n",
			})
		},
		Shows: map[string]string{
			"git status --short":             " M main.go\n?? notes.txt",
			"git diff --stat":                "1 file changed",
			"git diff -- main.go | head -40": "+\tfmt.Println(\"hello\", os.Args[1])",
			"cat notes.txt | head -5":        "greet by name",
		},
	}
}

// listTodos: find the TODOs and collect them.
func listTodos() CommandTask {
	todo := "- api.go:3: retry on timeout\n- db.go:5: close the rows\n"
	return CommandTask{Task: Task{
		Name:   "list-todos",
		Prompt: "Collect every TODO in the Go files into TODO.md, with file and line.",
		Files: map[string]string{
			"go.mod": goMod,
			"api.go": "package calc\n\n// TODO: retry on timeout\nfunc Call() {}\n",
			"db.go":  "package calc\n\nfunc Query() {\n\t_ = 1\n\t// TODO: close the rows\n}\n",
		},
		Act: inOrder("TODO.md lists the two TODOs.",
			sh("ls -la"),
			sh("grep -rn TODO --include='*.go' . | sort"),
			sh("wc -l *.go"),
			C("write_file", "path", "TODO.md", "content", todo),
		),
		Check: func(ws, _ string) error { return fileIs(ws, "TODO.md", todo) },
	}, Shows: map[string]string{
		"grep -rn TODO --include='*.go' . | sort": "./api.go:3:// TODO: retry on timeout\n./db.go:5:",
		"wc -l *.go": "10 total",
	}}
}

// renameFunction: rename a function everywhere, then build, vet and test.
func renameFunction() CommandTask {
	return CommandTask{Task: Task{
		Name:   "rename-function",
		Prompt: "Rename the function sumAll to Total everywhere, and check that it builds and the tests pass.",
		Files: map[string]string{
			"go.mod":       goMod,
			"sum.go":       "package calc\n\nfunc sumAll(xs []int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n",
			"use.go":       "package calc\n\nfunc Twice(xs []int) int { return 2 * sumAll(xs) }\n",
			"sum_test.go":  "package calc\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice([]int{1, 2}) != 6 {\n\t\tt.Fatal(\"Twice\")\n\t}\n}\n",
			"README.md":    "calc: sumAll adds numbers\n",
			"docs/calc.md": "Use sumAll.\n",
		},
		Act: inOrder("sumAll is Total now; it builds, vets and passes its tests.",
			sh("grep -rln sumAll --include='*.go' ."),
			sh("sed -i 's/sumAll/Total/g' sum.go use.go"),
			sh("gofmt -l . && go build ./... && go vet ./..."),
			sh("go test ./... 2>&1 | tail -3"),
			sh("grep -rn sumAll --include='*.go' . | wc -l"),
		),
		Check: func(ws, _ string) error {
			if err := fileHas(ws, "sum.go", "func Total("); err != nil {
				return err
			}
			return fileHas(ws, "use.go", "Total(xs)")
		},
	}, Shows: map[string]string{
		"grep -rln sumAll --include='*.go' .":        "./sum.go",
		"go test ./... 2>&1 | tail -3":               "ok  \tcalc",
		"grep -rn sumAll --include='*.go' . | wc -l": "\n0\n",
	}}
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
