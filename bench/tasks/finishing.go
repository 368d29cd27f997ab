package tasks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/toolbox"
)

// Tasks where the model says it is done before the task is: only a check
// of the result tells it what is missing.

// testsClaim: the tests still fail after the model's fix, and it says
// they pass, unless a check tells it what is wrong.
func testsClaim() Task {
	runTests := toolbox.Func("run_tests", "Run the project's tests. Use it to see what fails and to confirm a fix.", toolbox.RiskRead,
		func(_ context.Context, env toolbox.Env, _ struct{}) (string, error) {
			b, _ := os.ReadFile(filepath.Join(env.Workspace, "total.txt"))
			if got := strings.TrimSpace(string(b)); got != "42" {
				return fmt.Sprintf("FAILED test_total: total.txt holds %s, the sum of amounts.txt is 42\n0 passed, 1 failed", got), nil
			}
			return "1 passed, 0 failed", nil
		})
	run, read := C("run_tests"), C("read_file", "path", "amounts.txt")
	sloppy, right := C("write_file", "path", "total.txt", "content", "41"), C("write_file", "path", "total.txt", "content", "42")
	return Task{
		Name:   "tests-claim",
		Prompt: "Make run_tests pass: total.txt must hold the sum of the amounts in amounts.txt.",
		Tools:  []toolbox.Tool{runTests},
		Files:  map[string]string{"amounts.txt": "12\n15\n15\n", "total.txt": "40"},
		Plan: []Step{
			{Desc: "Run the tests", Tools: []string{"run_tests"}, Accept: "the failure is shown"},
			{Desc: "Read amounts.txt", Tools: []string{"read_file"}, Accept: "the amounts are shown"},
			{Desc: "Write the sum to total.txt", Tools: []string{"write_file"}, Accept: "total.txt holds the sum of amounts.txt, 42",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, `"content":"42"`) {
						return pass("total.txt holds 42")
					}
					return fail("total.txt holds 41, but 12 + 15 + 15 is 42")
				}},
			{Desc: "Run the tests again", Tools: []string{"run_tests"}, Accept: "every test passed",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, "0 failed") {
						return pass("1 passed, 0 failed")
					}
					return fail("a test still fails")
				}},
		},
		Act: func(s *Situation) Move {
			switch {
			case s.Count(run) == 0:
				return Do(run)
			case !s.Done(read):
				return Do(read)
			case s.Count(sloppy) == 0:
				return Do(sloppy)
			case s.Told("12 + 15 + 15 is 42") && !s.Done(right):
				return Do(right)
			case s.Count(run) < 2 || s.Done(right) && !strings.Contains(s.Last().Result, "0 failed"):
				return Do(run)
			}
			return Say("Fixed: total.txt holds the sum and the tests pass.")
		},
		Check: func(ws, _ string) error { return fileIs(ws, "total.txt", "42") },
	}
}

// stopsHalfway: the model does the first of several like edits and says
// it is done.
func stopsHalfway() Task {
	back := "\nBack to [[index]]\n"
	list := C("list_files", "path", "notes")
	index := C("write_file", "path", "index.md", "content", "- [[a]]\n- [[b]]\n- [[c]]\n")
	links := []Call{
		C("write_file", "path", "notes/a.md", "content", back, "append", true),
		C("write_file", "path", "notes/b.md", "content", back, "append", true),
		C("write_file", "path", "notes/c.md", "content", back, "append", true),
	}
	return Task{
		Name:   "stops-halfway",
		Prompt: "Create index.md linking every note in notes/ as [[name]], and append a line 'Back to [[index]]' to each note.",
		Files:  map[string]string{"notes/a.md": "# A\n", "notes/b.md": "# B\n", "notes/c.md": "# C\n"},
		Plan: []Step{
			{Desc: "List the notes", Tools: []string{"list_files"}, Accept: "the notes are listed"},
			{Desc: "Write index.md", Tools: []string{"write_file"}, Accept: "index.md links a, b and c"},
			{Desc: "Append the back link to every note", Tools: []string{"write_file"}, Accept: "a.md, b.md and c.md each got the line",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, "notes/b.md") && strings.Contains(ev, "notes/c.md") {
						return pass("every note got the line")
					}
					return fail("only a.md got the line; b.md and c.md did not")
				}},
		},
		Act: func(s *Situation) Move {
			switch {
			case !s.Done(list):
				return Do(list)
			case !s.Done(index):
				return Do(index)
			case !s.Done(links[0]):
				return Do(links[0])
			case s.Told("b.md and c.md did not") && !s.Done(links[2]):
				return Do(links[1], links[2])
			}
			return Say("Done: index.md lists the notes and every note links back to it.")
		},
		Check: func(ws, _ string) error {
			for _, n := range []string{"a", "b", "c"} {
				if err := fileHas(ws, "notes/"+n+".md", "Back to [[index]]"); err != nil {
					return err
				}
			}
			return fileHas(ws, "index.md", "[[a]]", "[[b]]", "[[c]]")
		},
	}
}

// numbersAsNumbers: the model's first conversion misses one requirement
// of the task.
func numbersAsNumbers() Task {
	read := C("read_file", "path", "data.csv")
	strs := C("write_file", "path", "data.json", "content", `[{"name":"pen","price":"2"},{"name":"ink","price":"5"}]`)
	nums := C("write_file", "path", "data.json", "content", `[{"name":"pen","price":2},{"name":"ink","price":5}]`)
	return Task{
		Name:   "numbers-json",
		Prompt: "Convert data.csv to data.json (a list of objects), keeping the prices as JSON numbers.",
		Files:  map[string]string{"data.csv": "name,price\npen,2\nink,5\n"},
		Plan: []Step{
			{Desc: "Read data.csv", Tools: []string{"read_file"}, Accept: "the rows are shown"},
			{Desc: "Write data.json", Tools: []string{"write_file"}, Accept: "data.json lists both rows with prices as numbers",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, `\"price\":\"`) {
						return fail(`the prices are strings ("2"), not numbers`)
					}
					return pass("prices are numbers")
				}},
		},
		Act: func(s *Situation) Move {
			switch {
			case !s.Done(read):
				return Do(read)
			case s.Count(strs) == 0:
				return Do(strs)
			case s.Told("not numbers") && !s.Done(nums):
				return Do(nums)
			}
			return Say("data.json holds both rows.")
		},
		Check: func(ws, _ string) error {
			return fileIs(ws, "data.json", `[{"name":"pen","price":2},{"name":"ink","price":5}]`)
		},
	}
}
