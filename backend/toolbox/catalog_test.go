package toolbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/i18n"
)

// writeSkill makes a skill folder under dir with the given files.
func writeSkill(t *testing.T, dir, name string, files map[string]string) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(folder, file), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return folder
}

// weatherScript is a command skill in node: it echoes its call, or fails
// in the ways a real script does, by the city asked for.
const weatherScript = `let s = '';
process.stdin.on('data', d => s += d).on('end', () => {
  const c = JSON.parse(s);
  const city = c.arguments.city;
  if (city === 'nowhere') { console.log(JSON.stringify({error: 'no such city; give a real city name'})); return; }
  if (city === 'crash') { process.stderr.write('weather service down\n'); process.exit(3); }
  if (city === 'prose') { console.log('sunny, I think'); return; }
  if (city === 'sleep') { setTimeout(() => {}, 60000); return; }
  if (city === 'flood') { process.stdout.write('x'.repeat(100000)); return; }
  if (city === 'json') { console.log(JSON.stringify({result: {temp: 21, unit: 'C'}})); return; }
  console.log(JSON.stringify({result: c.tool + ': sunny in ' + city + ' (workspace ' + c.workspace + ', skill ' + process.env.HERMES_SKILL_DIR + ')'}));
});
`

const weatherManifest = `{
  "name": "weather",
  "description": "Look up the weather. Use it when the task asks about the weather somewhere.",
  "command": ["node", "./weather.js"],
  "tools": [{
    "name": "get_weather",
    "description": "Use it to get today's weather in a city. Returns one line of text.",
    "risk": "network",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city's name."}}, "required": ["city"]}
  }]
}`

func weatherSkill(t *testing.T, dir string) string {
	return writeSkill(t, dir, "weather", map[string]string{"skill.json": weatherManifest, "weather.js": weatherScript})
}

func findSkill(t *testing.T, skills []Skill, name string) Skill {
	t.Helper()
	i := slices.IndexFunc(skills, func(s Skill) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("no skill %q among %+v", name, skills)
	}
	return skills[i]
}

func TestCatalog_BrokenManifestLeavesOthersWorking(t *testing.T) {
	user := t.TempDir()
	weatherSkill(t, user)
	writeSkill(t, user, "typo", map[string]string{"skill.json": `{"name":"typo","descripton":"x"}`})
	writeSkill(t, user, "files-again", map[string]string{"skill.json": `{"name":"files","description":"Mine.","runner":"builtin"}`})
	writeSkill(t, user, "howto", map[string]string{"SKILL.md": "---\nname: howto\ndescription: House rules.\n---\nAlways answer in haiku.\n"})
	writeSkill(t, user, "off", map[string]string{"SKILL.md": "---\nname: off\ndescription: Disabled.\n---\nNever seen.\n"})
	writeSkill(t, user, "windows-only", map[string]string{"skill.json": `{"name":"winreg","description":"Registry.","platforms":["windows"],"command":["x"],"tools":[{"name":"reg","description":"d","risk":"read"}]}`})
	writeSkill(t, user, "notes", map[string]string{})

	c := Load(t.Context(), Options{
		Builtin: true, UserDir: user, GoTools: append(FileTools(nil), ExecuteCommand(0, 0, nil), ReadArtifactTool()),
		Enabled: func(name string) bool { return name != "off" }, GOOS: "linux",
	})
	defer c.Close()
	list := c.Skills()

	if s := findSkill(t, list, "files"); s.Status != StatusLoaded || !slices.Equal(s.Tools, []string{"list_files", "read_file", "write_file", "read_artifact"}) {
		t.Errorf("built-in files: %+v", s)
	}
	if s := findSkill(t, list, "shell"); s.Status != StatusLoaded || !slices.Equal(s.Tools, []string{"execute_command"}) {
		t.Errorf("built-in shell: %+v", s)
	}
	// The vault's Go tools are not given here, so the obsidian skill is not set up.
	if s := findSkill(t, list, "obsidian"); s.Status != StatusUnavailable || s.Instructions == "" {
		t.Errorf("obsidian without its Go tools: %+v", s)
	}
	if s := findSkill(t, list, "weather"); s.Status != StatusLoaded || !slices.Equal(s.Tools, []string{"get_weather"}) {
		t.Errorf("weather: %+v", s)
	}
	typo := findSkill(t, list, "typo")
	if typo.Status != StatusBroken || !errors.Is(typo.Problem, ErrBrokenSkill) {
		t.Fatalf("typo: %+v", typo)
	}
	for lang, want := range map[i18n.Lang]string{i18n.EN: "descripton", i18n.ZH: "无法使用"} {
		var e *i18n.Error
		if !errors.As(typo.Problem, &e) || !strings.Contains(i18n.In(lang, e.Key, e.Args...), want) {
			t.Errorf("%s message of a broken manifest lacks %q: %v", lang, want, typo.Problem)
		}
	}
	if !strings.Contains(typo.Problem.Error(), filepath.Join(user, "typo", "skill.json")) {
		t.Errorf("the message does not name the file: %v", typo.Problem)
	}
	if s := list[slices.IndexFunc(list, func(s Skill) bool { return strings.HasSuffix(s.Source, "files-again") })]; s.Status != StatusBroken {
		t.Errorf("a user skill named like a built-in: %+v", s)
	}
	if s := findSkill(t, list, "howto"); s.Status != StatusLoaded || s.Instructions != "Always answer in haiku." {
		t.Errorf("instructions-only skill: %+v", s)
	}
	if s := findSkill(t, list, "off"); s.Status != StatusDisabled {
		t.Errorf("disabled skill: %+v", s)
	}
	if s := findSkill(t, list, "winreg"); s.Status != StatusUnavailable {
		t.Errorf("windows-only skill on linux: %+v", s)
	}
	if slices.ContainsFunc(list, func(s Skill) bool { return s.Name == "notes" }) {
		t.Error("a folder without skill.json or SKILL.md was taken for a skill")
	}

	reg := c.Registry()
	if !slices.Equal(reg.Names(), []string{"list_files", "read_file", "write_file", "read_artifact", "execute_command", "get_weather", LoadSkillTool}) {
		t.Fatalf("registry: %v", reg.Names())
	}
	if got := len(c.Problems()); got != 2 { // typo and files-again; the unavailable ones are not problems
		t.Errorf("%d problems, want 2: %v", got, c.Problems())
	}
}

func TestCatalog_LoadSkillGivesInstructions(t *testing.T) {
	user := t.TempDir()
	writeSkill(t, user, "howto", map[string]string{"SKILL.md": "---\nname: howto\ndescription: House rules for answers.\n---\nAlways answer in haiku.\n"})
	c := Load(t.Context(), Options{UserDir: user})
	reg := c.Registry()
	tool, ok := reg.Get(LoadSkillTool)
	if !ok || !strings.Contains(tool.Description, "- howto: House rules for answers.") {
		t.Fatalf("load_skill is not offered with the skill's name: %+v", tool)
	}
	prep, err := reg.Prepare(LoadSkillTool, `{"name":"HOWTO"}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := prep.Tool.Run(t.Context(), Env{RunID: "r1"}, prep.Args)
	if err != nil || !strings.Contains(out, "Always answer in haiku.") {
		t.Fatalf("load_skill: %q, %v", out, err)
	}
	if _, err := prep.Tool.Run(t.Context(), Env{}, []byte(`{"name":"nope"}`)); err == nil || !strings.Contains(err.Error(), "howto") {
		t.Fatalf("unknown skill: %v; want the list of skills", err)
	}
}

func TestCommandSkill_RealScript(t *testing.T) {
	requireNode(t)
	user, ws := t.TempDir(), t.TempDir()
	dir := weatherSkill(t, user)
	c := Load(t.Context(), Options{UserDir: user, OutputLimit: 4096})
	defer c.Close()
	reg := c.Registry()

	call := func(ctx context.Context, args string) (string, error) {
		prep, err := reg.Prepare("get_weather", args)
		if err != nil {
			t.Fatal(err)
		}
		return prep.Tool.Run(ctx, Env{Workspace: ws, RunID: "r1", CallID: "c1"}, prep.Args)
	}
	tests := []struct {
		city, want, wantErr string
	}{
		{"Paris", "get_weather: sunny in Paris (workspace " + ws + ", skill " + dir + ")", ""},
		{"json", `{"temp":21,"unit":"C"}`, ""},
		{"nowhere", "", "no such city; give a real city name"},
		{"crash", "", "weather service down"},
		{"prose", "", "did not answer with a JSON object"},
		{"flood", "", "more than 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.city, func(t *testing.T) {
			out, err := call(t.Context(), `{"city":"`+tt.city+`"}`)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v; want an error containing %q", out, err, tt.wantErr)
				}
				return
			}
			if err != nil || out != tt.want {
				t.Fatalf("got %q, %v; want %q", out, err, tt.want)
			}
		})
	}
	t.Run("timeout kills the process", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		_, err := call(ctx, `{"city":"sleep"}`)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want the deadline", err)
		}
	})
}
