package tasks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/skills"
)

// testsClaim: the tests still fail after the model's fix, and it says
// they pass, unless a check tells it what is wrong.
func testsClaim() Task {
	runTests := skills.Func("run_tests", "Run the project's tests. Use it to see what fails and to confirm a fix.", skills.RiskRead,
		func(_ context.Context, env skills.Env, _ struct{}) (string, error) {
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
		Tools:  []skills.Tool{runTests},
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

// countLogs is a task without trouble: both strategies do the same work.
func countLogs() Task {
	list := C("list_files", "path", "logs")
	reads := []Call{C("read_file", "path", "logs/app.log"), C("read_file", "path", "logs/db.log")}
	write := C("write_file", "path", "counts.txt", "content", "app.log: 3\ndb.log: 2\n")
	return Task{
		Name:   "count-logs",
		Prompt: "Count the lines of each .log file in logs/ and write 'name: count' lines to counts.txt.",
		Files:  map[string]string{"logs/app.log": "a\nb\nc\n", "logs/db.log": "x\ny\n"},
		Plan: []Step{
			{Desc: "List the logs", Tools: []string{"list_files"}, Accept: "the .log files are listed"},
			{Desc: "Read each log", Tools: []string{"read_file"}, Accept: "every log's lines are shown"},
			{Desc: "Write counts.txt", Tools: []string{"write_file"}, Accept: "counts.txt has a line per log"},
		},
		Act: func(s *Situation) Move {
			switch {
			case !s.Done(list):
				return Do(list)
			case !s.Done(reads[0]):
				return Do(reads...)
			case !s.Done(write):
				return Do(write)
			}
			return Say("counts.txt: app.log has 3 lines, db.log 2.")
		},
		Check: func(ws, _ string) error { return fileIs(ws, "counts.txt", "app.log: 3\ndb.log: 2\n") },
	}
}

// driftWrite: the model wanders from the asked change to the README,
// first reading it, then changing it, unless it is told it drifted.
func driftWrite() Task {
	read := C("read_file", "path", "package.json")
	write := C("write_file", "path", "package.json", "content", "{\"name\": \"demo\", \"version\": \"1.0.0\", \"license\": \"MIT\"}\n")
	detour := []Call{C("read_file", "path", "README.md"), C("write_file", "path", "README.md", "content", "# demo\n![license: MIT](badge.svg)\n")}
	return Task{
		Name:   "drift-write",
		Prompt: `Add a "license": "MIT" field to package.json.`,
		Files:  map[string]string{"package.json": "{\"name\": \"demo\", \"version\": \"1.0.0\"}\n", "README.md": "# demo\n"},
		Plan: []Step{
			{Desc: "Read package.json", Tools: []string{"read_file"}, Accept: "its fields are shown"},
			{Desc: "Write package.json with the license field", Tools: []string{"write_file"}, Accept: `package.json has "license": "MIT" and its other fields`},
		},
		Act: func(s *Situation) Move {
			if !s.Done(read) {
				return Do(read)
			}
			drifted := s.Count(detour[0]) + s.Count(detour[1])
			if drifted < len(detour) && !s.Told("drifted from the goal") {
				return Do(detour[drifted].Going().Because("add a license badge to the README too"))
			}
			if !s.Done(write) {
				return Do(write)
			}
			return Say(`package.json now has "license": "MIT".`)
		},
		Check: func(ws, _ string) error {
			if err := fileHas(ws, "package.json", `"license": "MIT"`, `"name": "demo"`); err != nil {
				return err
			}
			return fileIs(ws, "README.md", "# demo\n")
		},
	}
}

// journalDate: the model guesses how the journal names its files.
func journalDate() Task {
	guesses := []Call{C("read_file", "path", "journal/03-06-2024.md").Guessed("path"), C("read_file", "path", "journal/2024-6-3.md").Guessed("path")}
	list := C("list_files", "path", "journal")
	read := C("read_file", "path", "journal/2024-06-03.md")
	add := C("write_file", "path", "journal/2024-06-03.md", "content", "Standup: shipped the search fix\n", "append", true)
	return Task{
		Name:   "journal-date",
		Prompt: "Add the line 'Standup: shipped the search fix' to my journal entry for 3 June 2024.",
		Files:  map[string]string{"journal/2024-06-03.md": "# 3 June\n", "journal/2024-06-04.md": "# 4 June\n"},
		User:   "journal/2024-06-03.md",
		Plan: []Step{
			{Desc: "Read the journal entry for 3 June 2024", Tools: []string{"read_file"}, Accept: "the entry is shown"},
			{Desc: "Append the standup line", Tools: []string{"write_file"}, Accept: "the line was added to the entry"},
		},
		Act: func(s *Situation) Move {
			told := s.Told("The user says: journal/2024-06-03.md")
			switch {
			case s.Count(guesses[0]) == 0:
				return Do(guesses[0])
			case !told && !s.Done(read) && s.Count(guesses[1]) == 0:
				return Do(guesses[1])
			case !told && !s.Done(list) && !s.Done(read):
				return Do(list)
			case !s.Done(read):
				return Do(read.Given("path"))
			case !s.Done(add):
				return Do(add)
			}
			return Say("Added the standup line to journal/2024-06-03.md.")
		},
		Check: func(ws, _ string) error {
			return fileIs(ws, "journal/2024-06-03.md", "# 3 June\nStandup: shipped the search fix\n")
		},
	}
}

// repeatWrite: the model writes its result again to be safe, until it is
// sure it was saved.
func repeatWrite() Task {
	read := C("read_file", "path", "numbers.txt")
	write := C("write_file", "path", "sorted.txt", "content", "2\n5\n9\n")
	return Task{
		Name:   "repeat-write",
		Prompt: "Write the numbers in numbers.txt, sorted, one per line, to sorted.txt.",
		Files:  map[string]string{"numbers.txt": "9\n2\n5\n"},
		Plan: []Step{
			{Desc: "Read numbers.txt", Tools: []string{"read_file"}, Accept: "the numbers are shown"},
			{Desc: "Write sorted.txt", Tools: []string{"write_file"}, Accept: "sorted.txt holds 2, 5, 9"},
		},
		Act: func(s *Situation) Move {
			sure := s.Planned && s.Current == 0 || s.Told("the result will not change")
			switch {
			case !s.Done(read):
				return Do(read)
			case !s.Done(write) || !sure:
				return Do(write.Because("save sorted.txt and make sure it is written"))
			}
			return Say("sorted.txt holds 2, 5 and 9.")
		},
		Check: func(ws, _ string) error { return fileIs(ws, "sorted.txt", "2\n5\n9\n") },
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

// plainQuestion needs no tools: routing answers it directly.
func plainQuestion() Task {
	return Task{
		Name:   "plain-question",
		Prompt: "What does HTTP status 418 mean?",
		Direct: true,
		Act: func(s *Situation) Move {
			if s.Offered && len(s.Calls) == 0 {
				return Do(C("list_files", "path", "."))
			}
			return Say("418 I'm a teapot: an April Fools' status from RFC 2324.")
		},
		Check: func(_, answer string) error {
			if !strings.Contains(answer, "teapot") {
				return fmt.Errorf("answer %q", answer)
			}
			return nil
		},
	}
}
