package toolbox

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// LoadSkillTool is the name of the tool that gives the model a skill's
// instructions and, when they were left out, its tools. The catalog makes
// it rather than Register: its description, load_skill.md, is followed by
// the skills loaded, and it is there only when there is something to load.
const LoadSkillTool = "load_skill"

//go:embed load_skill.md
var loadSkillMD string

type loadSkillArgs struct {
	Name string `json:"name" description:"The skill's name, exactly as listed in this tool's description."`
}

// addLoadSkill registers load_skill when there is something to load:
// instructions from a SKILL.md, or skills left out of a run's tools.
func (b *build) addLoadSkill(c *Catalog) {
	var lines []string
	hasInstructions := false
	for _, s := range b.skills {
		if s.Status != StatusLoaded {
			continue
		}
		hasInstructions = hasInstructions || s.Instructions != ""
		lines = append(lines, "- "+s.Name+": "+oneLine(s.Description))
	}
	onRequest := slices.ContainsFunc(b.skills, func(s Skill) bool { return s.Status == StatusLoaded && s.Offer == OfferRelevant })
	if !hasInstructions && !onRequest && len(b.reg.Names()) <= b.opts.SelectAbove {
		return
	}
	skills := slices.Clone(b.skills)
	t := Func(LoadSkillTool, strings.TrimRight(loadSkillMD, "\n")+"\n"+strings.Join(lines, "\n"), RiskRead, func(_ context.Context, env Env, a loadSkillArgs) (string, error) {
		return loadSkill(c, skills, env.RunID, a.Name)
	})
	if err := b.reg.Register(t); err != nil {
		panic(err) // no skill tool may take this name: Register refused it above
	}
}

func loadSkill(c *Catalog, skills []Skill, runID, name string) (string, error) {
	i := slices.IndexFunc(skills, func(s Skill) bool { return strings.EqualFold(s.Name, name) && s.Status == StatusLoaded })
	if i < 0 {
		return "", Errorf("there is no skill named %q; the skills are: %s. Call load_skill with one of these names.",
			name, strings.Join(loadedNames(skills), ", "))
	}
	s := skills[i]
	c.mu.RLock()
	sel := c.selections[runID]
	c.mu.RUnlock()
	var b strings.Builder
	if s.Instructions != "" {
		fmt.Fprintf(&b, "Instructions of the skill %s:\n\n%s\n", s.Name, s.Instructions)
	}
	switch {
	case len(s.Tools) == 0:
	case sel != nil && sel.activate(s.Name):
		fmt.Fprintf(&b, "\nThe tools of %s are available from your next turn: %s.", s.Name, strings.Join(s.Tools, ", "))
	default:
		fmt.Fprintf(&b, "\nThe tools of %s are already available to you: %s.", s.Name, strings.Join(s.Tools, ", "))
	}
	return strings.TrimSpace(b.String()), nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	return s
}
