package runner

import (
	"slices"
	"testing"

	"hermes/backend/config"
	"hermes/backend/toolbox"
)

// TestPreview_CountsEveryRunsTools: the preview of a stopped run counts
// the schemas of the tools every run has, those Build gives a run without
// a toolkit: the built-in skill files's, as registered.
func TestPreview_CountsEveryRunsTools(t *testing.T) {
	setup, err := previewSetup(t.TempDir(), config.Default(), "m")
	if err != nil {
		t.Fatal(err)
	}
	built, err := everyRunsTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tool := range toolbox.Builtins(toolbox.With{}, toolbox.SkillFiles) {
		want = append(want, tool.Name)
	}
	if got := setup.Tools.Names(); !slices.Equal(got, want) || !slices.Equal(built.Names(), want) {
		t.Fatalf("the preview counts %v, a run has %v, want %v", got, built.Names(), want)
	}
	if !slices.Equal(want, []string{"list_files", "read_file", "write_file", "read_artifact"}) {
		t.Fatalf("the files skill's tools are %v", want)
	}
}
