package toolbox

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"

	"hermes/backend/i18n"
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

// TestSummary: each built-in skill and tool has a line for a person in both
// languages, not the model's description; a user's own shows the first
// sentence of its description, even when it shares a built-in's name.
func TestSummary(t *testing.T) {
	names := []string{LoadSkillTool}
	for _, m := range builtinSkills {
		names = append(names, m.Name)
		for _, mt := range m.Tools {
			names = append(names, mt.Name)
		}
	}
	for _, name := range names {
		key := "toolbox.summary." + name
		en, zh := i18n.In(i18n.EN, key), i18n.In(i18n.ZH, key)
		if en == key || zh == key || !strings.ContainsFunc(zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("%s: summary %q / %q", name, en, zh)
		}
	}
	defer i18n.SetLang(i18n.Current())
	i18n.SetLang(i18n.ZH)
	if got := Summary("read_file", "Read a text file in the workspace. Use it when…", true); got != "读取工作区中的文本文件。" {
		t.Errorf("built-in read_file in Chinese: %q", got)
	}
	if got := Summary("read_file", "My own reader.\nUse it for logs.", false); got != "My own reader." {
		t.Errorf("a user's read_file: %q", got)
	}
	if got := Summary("weather", "Get the weather. Use it when asked.", true); got != "Get the weather." {
		t.Errorf("a name without a summary: %q", got)
	}
}

// TestCatalog_SaysHowToSetUpObsidian: the obsidian skill without a vault
// says what to do, not each of its tools that is missing.
func TestCatalog_SaysHowToSetUpObsidian(t *testing.T) {
	c := Load(t.Context(), Options{Builtin: true, UserDir: t.TempDir()})
	defer c.Close()
	for _, s := range c.Skills() {
		if s.Name != "obsidian" {
			continue
		}
		msg := i18n.MessageIn(i18n.EN, s.Problem)
		if s.Status != StatusUnavailable || !strings.Contains(msg, "[obsidian]") || strings.Contains(msg, "search_notes") {
			t.Errorf("obsidian without a vault: %s: %s", s.Status, msg)
		}
		if zh := i18n.MessageIn(i18n.ZH, s.Problem); !strings.Contains(zh, "笔记库") {
			t.Errorf("in Chinese: %s", zh)
		}
		return
	}
	t.Fatal("no obsidian skill")
}
