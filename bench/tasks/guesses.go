package tasks

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/toolbox"
)

// Tasks where the model lacks a fact (a file name, an id, a naming scheme)
// and guesses it instead of looking or asking.

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
	get := toolbox.Func("get_order", "Look up an order by its id. Use it before refunding.", toolbox.RiskRead,
		func(_ context.Context, _ toolbox.Env, a getArgs) (string, error) {
			if a.OrderID != "ORD-7731" {
				return "", toolbox.Errorf("no order %s; order ids look like ORD-1234", a.OrderID)
			}
			return "ORD-7731: Alice, 2 lamps, 80 EUR, delivered", nil
		})
	refund := toolbox.Func("refund_order", "Refund an order by its id. Use it once the order is looked up.", toolbox.RiskRead,
		func(_ context.Context, env toolbox.Env, a refundArgs) (string, error) {
			if a.OrderID != "ORD-7731" {
				return "", toolbox.Errorf("no order %s", a.OrderID)
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
		Tools:  []toolbox.Tool{get, refund},
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
