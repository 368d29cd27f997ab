package vault

import "hermes/backend/skills"

// skillName is the built-in skill that offers the vault's tools
// (skills/obsidian).
const skillName = "obsidian"

// The vault's tools are built-in tools (skills.Register) of the obsidian
// skill, made with the vault that skills.With.Vault gives (the toolkit's
// *Lazy, opened on a tool's first call) and left out when none is set. A
// tool is a file NAME.go whose init calls register, and its description
// for the model in NAME.md beside it (go:embed); those below were written
// before that and are registered here until each moves to its own init.
func init() {
	for _, tool := range []func(opener) skills.Tool{
		searchNotesTool, readNoteTool, listNotesTool, backlinksTool, listTagsTool, appendNoteTool, createNoteTool,
	} {
		register(tool)
	}
}

// register offers the tool that tool builds wherever built-in tools are,
// bound to the vault of skills.With.Vault: a *Lazy, or an opener (Tools).
func register(tool func(opener) skills.Tool) {
	skills.Register(skills.Builtin{Skill: skillName, Make: func(w skills.With) (skills.Tool, bool) {
		switch v := w.Vault.(type) {
		case *Lazy:
			if v != nil {
				return tool(v.Vault), true
			}
		case opener:
			if v != nil {
				return tool(v), true
			}
		}
		return skills.Tool{}, false
	}})
}
