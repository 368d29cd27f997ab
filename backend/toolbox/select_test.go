package toolbox

import (
	"context"
	"slices"
	"testing"
)

func defNames(s *Selection) []string {
	var names []string
	for _, d := range s.Defs() {
		names = append(names, d.Name)
	}
	return names
}

func TestSelect_OnlyRelevantSkillsAboveTheThreshold(t *testing.T) {
	user := t.TempDir()
	weatherSkill(t, user)
	c := Load(t.Context(), Options{
		Builtin: true, UserDir: user, GoTools: append(FileTools(nil), ExecuteCommand(0, 0, nil), ReadArtifactTool()), SelectAbove: 5,
	})
	defer c.Close()

	sel := c.Select("run-1", "What is the weather in Paris tomorrow?")
	defer sel.Close()
	if got := defNames(sel); !slices.Equal(got, []string{"get_weather", LoadSkillTool}) {
		t.Fatalf("offered %v, want get_weather and load_skill", got)
	}
	saved := sel.SavedTokens()
	if saved <= 0 {
		t.Fatalf("saved %d schema tokens, want some", saved)
	}

	// The model asks for the files skill by name.
	prep, err := sel.Registry().Prepare(LoadSkillTool, `{"name":"files"}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := prep.Tool.Run(t.Context(), Env{RunID: "run-1"}, prep.Args)
	if err != nil || out != "The tools of files are available from your next turn: list_files, read_file, write_file, read_artifact." {
		t.Fatalf("load_skill: %q, %v", out, err)
	}
	if got := defNames(sel); !slices.Equal(got, []string{"list_files", "read_file", "write_file", "read_artifact", "get_weather", LoadSkillTool}) {
		t.Fatalf("after load_skill: %v", got)
	}
	if after := sel.SavedTokens(); after <= 0 || after >= saved {
		t.Fatalf("saved %d tokens after loading files, want between 0 and %d", after, saved)
	}
	if got := sel.Skills(); !slices.Equal(got, []string{"files", "weather"}) {
		t.Fatalf("skills %v", got)
	}
	again, _ := prep.Tool.Run(t.Context(), Env{RunID: "run-1"}, prep.Args)
	if again != "The tools of files are already available to you: list_files, read_file, write_file, read_artifact." {
		t.Fatalf("second load_skill: %q", again)
	}

	// Another run's selection is its own.
	other := c.Select("run-2", "List the files and write a summary")
	defer other.Close()
	if got := other.Skills(); !slices.Equal(got, []string{"files"}) {
		t.Fatalf("run-2 skills %v", got)
	}
}

func TestSelect_AllToolsAtOrBelowTheThreshold(t *testing.T) {
	c := Load(t.Context(), Options{Builtin: true, GoTools: append(FileTools(nil), ExecuteCommand(0, 0, nil), ReadArtifactTool())})
	defer c.Close()
	sel := c.Select("run-1", "anything")
	defer sel.Close()
	if len(sel.Defs()) != len(c.Registry().Defs()) || sel.SavedTokens() != 0 || sel.Skills() != nil {
		t.Fatalf("offered %v of %v, saved %d", defNames(sel), c.Registry().Names(), sel.SavedTokens())
	}
}

func TestTerms(t *testing.T) {
	got := terms("Summarise the notes; 查询北京天气 and Files")
	for _, w := range []string{"summarise", "note", "file", "查询", "北京", "天气"} {
		if !got[w] {
			t.Errorf("terms lack %q: %v", w, got)
		}
	}
	if got["the"] || got["and"] {
		t.Errorf("stop words kept: %v", got)
	}
}

type memoArgs struct {
	Query string `json:"query" description:"What to look for."`
}

// memoCatalog has the built-in skills and a user's skill offered only when
// relevant, whose one tool is a Go function.
func memoCatalog(t *testing.T, selectAbove ...int) *Catalog {
	t.Helper()
	user := t.TempDir()
	writeSkill(t, user, "memos", map[string]string{"skill.json": `{"name":"memos","description":"Look things up in the user's memos.",
		"runner":"builtin","offer":"relevant","keywords":["memo","备忘录","[["],"tools":[{"name":"find_memo"}]}`})
	find := Func("find_memo", "Find a memo.", RiskRead, func(_ context.Context, _ Env, a memoArgs) (string, error) {
		return "memo about " + a.Query, nil
	})
	opts := Options{Builtin: true, UserDir: user, GoTools: append(FileTools(nil), ExecuteCommand(0, 0, nil), ReadArtifactTool(), find)}
	if len(selectAbove) > 0 {
		opts.SelectAbove = selectAbove[0]
	}
	c := Load(t.Context(), opts)
	t.Cleanup(c.Close)
	if s := findSkill(t, c.Skills(), "memos"); s.Status != StatusLoaded || s.Offer != OfferRelevant {
		t.Fatalf("memos: %+v", s)
	}
	return c
}

// TestSelect_RelevantSkillOnlyWhenTheTaskNamesIt: below the threshold every
// skill is offered but one offered "relevant", which a task gets when it
// uses the skill's name, a keyword (as a word, a plural included; Chinese
// or "[[" anywhere) or a tool's name; load_skill is there to add it.
func TestSelect_RelevantSkillOnlyWhenTheTaskNamesIt(t *testing.T) {
	c := memoCatalog(t)
	all := c.Registry().Names()
	for _, tc := range []struct {
		task    string
		offered bool
	}{
		{"say done", false},
		{"fix the failing test in parser.go", false},
		{"commemorate the release in CHANGELOG.md", false}, // "memo" only inside a word
		{"Summarise my memos from May", true},
		{"look in the Memos skill", true},
		{"把备忘录里的会议整理一下", true},
		{"what does [[Plan]] say?", true},
		{"call find_memo for the budget", true},
	} {
		sel := c.Select("run-1", tc.task)
		got := defNames(sel)
		if slices.Contains(got, "find_memo") != tc.offered || !slices.Contains(got, LoadSkillTool) {
			t.Errorf("%q: offered %v", tc.task, got)
		}
		if tc.offered && (len(got) != len(all) || sel.SavedTokens() != 0) {
			t.Errorf("%q: offered %v of %v, saved %d", tc.task, got, all, sel.SavedTokens())
		}
		if !tc.offered && sel.SavedTokens() <= 0 {
			t.Errorf("%q: saved %d schema tokens, want some", tc.task, sel.SavedTokens())
		}
		sel.Close()
	}
}

// TestSelect_RelevantSkillAddedByLoadSkillOrACall: a run whose task left
// the skill out gets its tools from the next request on once the model
// loads it, or calls one of its tools all the same (a conversation that
// used it before); another run's selection is untouched.
func TestSelect_RelevantSkillAddedByLoadSkillOrACall(t *testing.T) {
	c := memoCatalog(t)
	call := func(run, tool, args string) string {
		t.Helper()
		p, err := c.Registry().Prepare(tool, args)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Tool.Run(t.Context(), Env{RunID: run}, p.Args)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	loaded, other := c.Select("run-1", "say done"), c.Select("run-2", "say done")
	defer loaded.Close()
	defer other.Close()
	if out := call("run-1", LoadSkillTool, `{"name":"memos"}`); out != "The tools of memos are available from your next turn: find_memo." {
		t.Fatalf("load_skill: %q", out)
	}
	if !slices.Contains(defNames(loaded), "find_memo") || loaded.SavedTokens() != 0 {
		t.Fatalf("after load_skill: %v", defNames(loaded))
	}
	if slices.Contains(defNames(other), "find_memo") {
		t.Fatal("loading the skill in one run offered it to another")
	}

	called := c.Select("run-3", "say done")
	defer called.Close()
	if out := call("run-3", "find_memo", `{"query":"budget"}`); out != "memo about budget" {
		t.Fatalf("find_memo: %q", out)
	}
	if !slices.Contains(defNames(called), "find_memo") {
		t.Fatalf("after a call: %v", defNames(called))
	}
	if slices.Contains(defNames(other), "find_memo") {
		t.Fatal("a call in one run offered the skill to another")
	}
}

func TestManifest_Offer(t *testing.T) {
	for _, bad := range []string{
		`{"name":"x","description":"d","runner":"builtin","offer":"sometimes"}`,
		`{"name":"x","description":"d","runner":"builtin","offer":"relevant","keywords":["memo"," "]}`,
	} {
		if _, err := ParseManifest([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	m, err := ParseManifest([]byte(`{"name":"x","description":"d","runner":"builtin","offer":"relevant","keywords":["memo"]}`))
	if err != nil || m.Offer != OfferRelevant || !slices.Equal(m.Keywords, []string{"memo"}) {
		t.Fatalf("%+v, %v", m, err)
	}
}

// TestSelect_RelevantSkillAboveTheThreshold: with many tools, a skill
// offered "relevant" is ranked only for a task that names it, however many
// words its description shares with the task.
func TestSelect_RelevantSkillAboveTheThreshold(t *testing.T) {
	c := memoCatalog(t, 5)
	for _, tc := range []struct {
		task    string
		offered bool
	}{
		{"Look things up in the user's files", false},
		{"Look things up in the user's memos", true},
	} {
		sel := c.Select("run-1", tc.task)
		if got := defNames(sel); slices.Contains(got, "find_memo") != tc.offered {
			t.Errorf("%q: offered %v", tc.task, got)
		}
		sel.Close()
	}
}
