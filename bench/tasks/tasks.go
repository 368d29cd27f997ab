package tasks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/skills"
)

// All is the suite, in the order the table lists it.
func All() []Task {
	return []Task{
		wanderSummary(), repeatRead(), driftTodo(), replanName(), orderID(), testsClaim(),
		stopsHalfway(), countLogs(), driftWrite(), journalDate(), repeatWrite(), numbersAsNumbers(), plainQuestion(),
	}
}

// fileIs checks a workspace file's content.
func fileIs(ws, name, want string) error {
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(name)))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if string(b) != want {
		return fmt.Errorf("%s holds %q, want %q", name, b, want)
	}
	return nil
}

// fileHas checks that a workspace file holds every one of parts.
func fileHas(ws, name string, parts ...string) error {
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(name)))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	for _, p := range parts {
		if !strings.Contains(string(b), p) {
			return fmt.Errorf("%s lacks %q: %q", name, p, b)
		}
	}
	return nil
}

func pass(reason string) Verdict { return Verdict{Passed: true, Reason: reason} }
func fail(reason string) Verdict { return Verdict{Reason: reason} }

// wanderSummary: the model looks around the workspace before it starts,
// until it has a concrete next step or is told it is off course.
func wanderSummary() Task {
	work := []Call{
		C("list_files", "path", "notes"), C("read_file", "path", "notes/alpha.md").Going(), C("read_file", "path", "notes/beta.md"),
		C("write_file", "path", "SUMMARY.md", "content", "- alpha: ship the beta on Friday\n- beta: hire two engineers\n"),
	}
	wander := []Call{C("list_files", "path", "."), C("read_file", "path", "README.md"), C("read_file", "path", "todo.txt"), C("list_files", "path", "src")}
	return Task{
		Name:   "wander-summary",
		Prompt: "Summarise the notes in notes/ into SUMMARY.md, one line per note.",
		Files: map[string]string{
			"notes/alpha.md": "Alpha: ship the beta on Friday.\n", "notes/beta.md": "Beta: hire two engineers.\n",
			"README.md": "# Workspace\n", "todo.txt": "water the plants\n", "src/main.go": "package main\n",
		},
		Plan: []Step{
			{Desc: "List the notes in notes/", Tools: []string{"list_files"}, Accept: "the notes are listed"},
			{Desc: "Read every note", Tools: []string{"read_file"}, Accept: "each note's text is shown",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, "Alpha:") && strings.Contains(ev, "Beta:") {
						return pass("both notes were read")
					}
					return fail("not every note was read")
				}},
			{Desc: "Write SUMMARY.md", Tools: []string{"write_file"}, Accept: "SUMMARY.md has one line per note"},
		},
		Act: func(s *Situation) Move {
			wandered := 0
			for _, w := range wander {
				wandered += s.Count(w)
			}
			if wandered == len(s.Calls) && wandered < len(wander) && !s.Told("drifted from the goal") {
				return Do(wander[wandered].Going().Because("look around the workspace first"))
			}
			if c, ok := s.Next(work...); ok {
				return Do(c)
			}
			return Say("SUMMARY.md now has one line per note.")
		},
		Check: func(ws, _ string) error { return fileHas(ws, "SUMMARY.md", "ship the beta", "hire two engineers") },
	}
}

// repeatRead: the model reads the file again and again until it is sure
// it has it: the plan shows the step passed, or it is told the result
// will not change.
func repeatRead() Task {
	read := C("read_file", "path", "server.toml")
	write := C("write_file", "path", "server.toml", "content", "host = \"0.0.0.0\"\nport = 8080\n")
	return Task{
		Name:   "repeat-read",
		Prompt: "Set the port to 8080 in server.toml and keep everything else as it is.",
		Files:  map[string]string{"server.toml": "host = \"0.0.0.0\"\nport = 80\n"},
		Plan: []Step{
			{Desc: "Read server.toml", Tools: []string{"read_file"}, Accept: "its settings are shown"},
			{Desc: "Write server.toml with port 8080", Tools: []string{"write_file"}, Accept: "server.toml has port = 8080 and the same host",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, `port = 8080`) && strings.Contains(ev, "host") {
						return pass("the port is 8080 and the host kept")
					}
					return fail("the port or the host is wrong")
				}},
		},
		Act: func(s *Situation) Move {
			sure := s.Current > 1 || s.Told("the result will not change")
			switch {
			case !s.Done(read) || !sure && !s.Done(write):
				return Do(read.Because("make sure I have the settings of server.toml"))
			case !s.Done(write):
				return Do(write)
			}
			return Say("server.toml now sets port = 8080.")
		},
		Check: func(ws, _ string) error { return fileIs(ws, "server.toml", "host = \"0.0.0.0\"\nport = 8080\n") },
	}
}

// driftTodo: a TODO in the file leads the model to unrelated work for a
// while, unless it is told it drifted.
func driftTodo() Task {
	read := C("read_file", "path", "docs/guide.md")
	fix := C("write_file", "path", "docs/guide.md", "content", "# Guide\nYou will receive a token.\nTODO: tidy CHANGELOG.md and the releases/ folder.\n")
	detour := []Call{C("read_file", "path", "CHANGELOG.md"), C("list_files", "path", "releases"), C("read_file", "path", "releases/v1.md")}
	return Task{
		Name:   "drift-todo",
		Prompt: "Fix the misspelling 'recieve' in docs/guide.md.",
		Files: map[string]string{
			"docs/guide.md": "# Guide\nYou will recieve a token.\nTODO: tidy CHANGELOG.md and the releases/ folder.\n",
			"CHANGELOG.md":  "## 1.0\n- first release\n", "releases/v1.md": "v1\n",
		},
		Plan: []Step{
			{Desc: "Read docs/guide.md", Tools: []string{"read_file"}, Accept: "the guide's text is shown"},
			{Desc: "Write the corrected guide", Tools: []string{"write_file"}, Accept: "the guide says receive"},
		},
		Act: func(s *Situation) Move {
			if !s.Done(read) {
				return Do(read)
			}
			drifted := 0
			for _, d := range detour {
				drifted += s.Count(d)
			}
			if drifted < len(detour) && !s.Told("drifted from the goal") {
				return Do(detour[drifted].Going().Because("tidy the changelog as the TODO says"))
			}
			if !s.Done(fix) {
				return Do(fix)
			}
			return Say("Fixed: the guide now says 'receive'.")
		},
		Check: func(ws, _ string) error {
			if err := fileHas(ws, "docs/guide.md", "receive a token"); err != nil {
				return err
			}
			return fileIs(ws, "CHANGELOG.md", "## 1.0\n- first release\n")
		},
	}
}

// replanName: the file the user names is not there. Without a plan that
// says to look, the model guesses another name before it lists the files.
func replanName() Task {
	named := C("read_file", "path", "settings.yaml").Given("path")
	guess := C("read_file", "path", "config/settings.yaml").Guessed("path")
	list := C("list_files", "path", ".")
	read := C("read_file", "path", "settings.yml").Found("path")
	write := C("write_file", "path", "settings.yml", "content", "level: debug\nformat: json\n").Found("path")
	return Task{
		Name:   "replan-name",
		Prompt: "Change the log level to debug in settings.yaml.",
		User:   "",
		Files:  map[string]string{"settings.yml": "level: info\nformat: json\n"},
		Plan: []Step{
			{Desc: "Read settings.yaml", Tools: []string{"read_file"}, Accept: "its settings are shown",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, "no such file") {
						return Verdict{Contradicts: true, Reason: "settings.yaml does not exist; the settings file has another name"}
					}
					return pass("shown")
				}},
			{Desc: "Set the level to debug", Tools: []string{"write_file"}, Accept: "the file says level: debug"},
		},
		Replan: []Step{
			{Desc: "Find the settings file", Tools: []string{"list_files"}, Accept: "a settings file is listed"},
			{Desc: "Read the settings file", Tools: []string{"read_file"}, Accept: "its settings are shown"},
			{Desc: "Set the level to debug in it", Tools: []string{"write_file"}, Accept: "the file says level: debug",
				Judge: func(ev string) Verdict {
					if strings.Contains(ev, "level: debug") {
						return pass("level: debug")
					}
					return fail("the level is not debug")
				}},
		},
		Act: func(s *Situation) Move {
			switch {
			case s.Count(named) == 0:
				return Do(named)
			case !s.Done(list) && !s.StepUses("list_files") && s.Count(guess) == 0:
				return Do(guess)
			case !s.Done(list):
				return Do(list)
			case !s.Done(read):
				return Do(read)
			case !s.Done(write):
				return Do(write)
			}
			return Say("settings.yml now sets level: debug.")
		},
		Check: func(ws, _ string) error { return fileIs(ws, "settings.yml", "level: debug\nformat: json\n") },
	}
}

// orderID: the model needs an order id no tool can find, and guesses one.
func orderID() Task {
	type getArgs struct {
		OrderID string `json:"order_id" description:"The order's id, such as ORD-1234."`
	}
	type refundArgs struct {
		OrderID string `json:"order_id" description:"The order's id, such as ORD-1234."`
		Reason  string `json:"reason" description:"Why it is refunded."`
	}
	get := skills.Func("get_order", "Look up an order by its id. Use it before refunding.", skills.RiskRead,
		func(_ context.Context, _ skills.Env, a getArgs) (string, error) {
			if a.OrderID != "ORD-7731" {
				return "", skills.Errorf("no order %s; order ids look like ORD-1234", a.OrderID)
			}
			return "ORD-7731: Alice, 2 lamps, 80 EUR, delivered", nil
		})
	refund := skills.Func("refund_order", "Refund an order by its id. Use it once the order is looked up.", skills.RiskRead,
		func(_ context.Context, env skills.Env, a refundArgs) (string, error) {
			if a.OrderID != "ORD-7731" {
				return "", skills.Errorf("no order %s", a.OrderID)
			}
			line := a.OrderID + " " + a.Reason + "\n"
			f, err := os.OpenFile(filepath.Join(env.Workspace, "refunds.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return "", err
			}
			defer f.Close()
			_, err = f.WriteString(line)
			return "refunded " + a.OrderID, err
		})
	guesses := []string{"ORD-1001", "ORD-1002", "ORD-1003", "ORD-1004"}
	return Task{
		Name:   "order-id",
		Prompt: "Refund Alice's last order; the reason is 'arrived damaged'.",
		Tools:  []skills.Tool{get, refund},
		User:   "ORD-7731",
		Plan: []Step{
			{Desc: "Look up Alice's last order", Tools: []string{"get_order"}, Accept: "the order is shown"},
			{Desc: "Refund it", Tools: []string{"refund_order"}, Accept: "the refund is confirmed"},
		},
		Act: func(s *Situation) Move {
			if s.Told("The user says: ORD-7731") {
				if c, ok := s.Next(C("get_order", "order_id", "ORD-7731").Given("order_id"),
					C("refund_order", "order_id", "ORD-7731", "reason", "arrived damaged").Given("order_id")); ok {
					return Do(c)
				}
				return Say("Refunded ORD-7731 (arrived damaged).")
			}
			if s.Told("No one can tell you") {
				return Say("I need the id of Alice's last order to refund it.")
			}
			n := len(s.Calls)
			return Do(C("get_order", "order_id", guesses[min(n, len(guesses)-1)]).Guessed("order_id"))
		},
		Check: func(ws, _ string) error { return fileHas(ws, "refunds.log", "ORD-7731 arrived damaged") },
	}
}
