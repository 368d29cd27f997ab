package vault

import "hermes/backend/skills"

// The vault's tools are built-in tools (skills.Register) of the obsidian
// skill, made with the vault that skills.With.Vault gives (a *Lazy, opened
// on a tool's first call) and left out when none is set. A tool's file
// registers it from its init with register, its description in NAME.md
// beside it; those below were written before and are registered here.
func init() {
	for _, tool := range []func(opener) skills.Tool{
		searchNotesTool, readNoteTool, listNotesTool, backlinksTool, listTagsTool, appendNoteTool, createNoteTool,
	} {
		register(tool)
	}
}

// register offers the tool that tool builds wherever built-in tools are,
// bound to the vault of skills.With.Vault.
func register(tool func(opener) skills.Tool) {
	skills.Register(skills.Builtin{Skill: "obsidian", Make: func(w skills.With) (skills.Tool, bool) {
		l, _ := w.Vault.(*Lazy)
		if l == nil {
			return skills.Tool{}, false
		}
		return tool(l.Vault), true
	}})
}
