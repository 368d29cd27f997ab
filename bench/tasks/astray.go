package tasks

import "strings"

// Tasks where the model goes astray while it works: it wanders before it
// starts, repeats a call, or drifts to work nobody asked for.

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
			"README.md": "# Workspace\n", "todo.txt": "water the plants\n", "src/main.py": "print(\"hello\")\n",
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
