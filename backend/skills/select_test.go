package skills

import (
	"slices"
	"testing"

	builtin "hermes/skills"
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
		Builtin: builtin.FS(), UserDir: user, GoTools: append(FileTools(), ExecuteCommand(0, 0, nil), ReadArtifactTool()), SelectAbove: 5,
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
	c := Load(t.Context(), Options{Builtin: builtin.FS(), GoTools: append(FileTools(), ExecuteCommand(0, 0, nil), ReadArtifactTool())})
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
