package tasks

import (
	"fmt"
	"strings"
)

// Tasks without trouble, the controls: every strategy should do the same
// work, or answer directly.

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
