package toolbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestWatch_HotReload(t *testing.T) {
	user := filepath.Join(t.TempDir(), "skills") // made by Watch
	c := Load(t.Context(), Options{UserDir: user})
	defer c.Close()
	reloaded := make(chan []Skill, 16)
	if err := c.Watch(t.Context(), func(s []Skill) { reloaded <- s }); err != nil {
		t.Fatal(err)
	}
	// waitFor takes reloads until one satisfies ok: a burst of writes may
	// settle into more than one reload.
	waitFor := func(what string, ok func([]Skill) bool) []Skill {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case s := <-reloaded:
				if ok(s) {
					return s
				}
			case <-timeout:
				t.Fatalf("no reload with %s", what)
			}
		}
	}
	status := func(name string) func([]Skill) bool {
		return func(list []Skill) bool {
			i := slices.IndexFunc(list, func(s Skill) bool { return s.Name == name })
			return i >= 0 && list[i].Status == StatusLoaded
		}
	}

	weatherSkill(t, user)
	waitFor("weather loaded", status("weather"))
	if _, ok := c.Registry().Get("get_weather"); !ok {
		t.Fatal("get_weather not registered after the reload")
	}

	// A broken save keeps the skill listed as broken while another loads.
	manifest := filepath.Join(user, "weather", "skill.json")
	if err := os.WriteFile(manifest, []byte(`{"name": "weather",`), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, user, "howto", map[string]string{"SKILL.md": "---\nname: howto\ndescription: Rules.\n---\nBe brief.\n"})
	list := waitFor("weather broken and howto loaded", func(list []Skill) bool {
		broken := slices.ContainsFunc(list, func(s Skill) bool { return s.Status == StatusBroken && s.Problem != nil })
		return broken && status("howto")(list)
	})
	if slices.ContainsFunc(list, func(s Skill) bool { return s.Name == "weather" && s.Status == StatusLoaded }) {
		t.Fatal("the broken weather skill is still loaded")
	}
	if _, ok := c.Registry().Get("get_weather"); ok {
		t.Fatal("get_weather still registered after its manifest broke")
	}

	// Fixed by an editor's save: write a temporary file, rename it over.
	tmp := manifest + ".tmp"
	if err := os.WriteFile(tmp, []byte(weatherManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, manifest); err != nil {
		t.Fatal(err)
	}
	waitFor("weather loaded again", status("weather"))
}
