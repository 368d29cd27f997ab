package toolbox

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestBuiltinSkills_Valid: the built-in manifests pass what a user's
// skill.json must (each written out as JSON and read back with
// ParseManifest, which gives the same manifest), their names are their own,
// and each skill's SKILL.md, where it has one, parses and names the skill.
func TestBuiltinSkills_Valid(t *testing.T) {
	var names []string
	for _, f := range builtinFound() {
		m := *f.manifest
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseManifest(data)
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
		if again, _ := json.Marshal(back); string(again) != string(data) {
			t.Errorf("%s: read back as\n%s\nwant\n%s", m.Name, again, data)
		}
		if m.Runner != RunnerBuiltin {
			t.Errorf("%s: runner %q, want builtin", m.Name, m.Runner)
		}
		if f.err != nil || f.instr != nil && f.instr.Name != m.Name {
			t.Errorf("%s: SKILL.md: %v, named %q", m.Name, f.err, f.instr.Name)
		}
		if slices.Contains(names, m.Name) {
			t.Errorf("two built-in skills are named %s", m.Name)
		}
		names = append(names, m.Name)
	}
	if !slices.Equal(names, []string{SkillFiles, "shell", "obsidian"}) {
		t.Errorf("built-in skills %v", names)
	}
	if found := builtinFound(); found[2].instr == nil || found[2].instr.Body == "" {
		t.Error("obsidian's SKILL.md was not read")
	}
}

// TestBuiltinSkills_CopiesAreTheirOwn: a caller changing what BuiltinSkills
// gave it changes no other's.
func TestBuiltinSkills_CopiesAreTheirOwn(t *testing.T) {
	a := BuiltinSkills()
	a[2].Keywords[0], a[0].Tools[0].Name = "changed", "changed"
	b := BuiltinSkills()
	if b[2].Keywords[0] == "changed" || b[0].Tools[0].Name == "changed" || listedTools(SkillFiles)[0] == "changed" {
		t.Error("a change to one copy reached the built-in manifests")
	}
}
