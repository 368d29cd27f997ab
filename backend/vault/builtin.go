package vault

import (
	"encoding/json"

	"hermes/backend/toolbox"
)

// skillName is the built-in skill that offers the vault's tools
// (skills/obsidian).
const skillName = "obsidian"

// The vault's tools are built-in tools (toolbox.Register) of the obsidian
// skill, made with the vault that toolbox.With.Vault gives (the toolkit's
// *Lazy, opened on a tool's first call) and left out when none is set. A
// tool is a file NAME.go whose init calls register, and its description
// for the model in NAME.md beside it (go:embed); those below were written
// before that and are registered here until each moves to its own init.
func init() {
	for _, tool := range []func(opener) toolbox.Tool{
		searchNotesTool, readNoteTool, listNotesTool, backlinksTool, listTagsTool, appendNoteTool, createNoteTool,
	} {
		register(tool)
	}
}

// register offers the tool that tool builds wherever built-in tools are,
// bound to the vault of toolbox.With.Vault: a *Lazy, or an opener (Tools).
// A tool that writes previews its change for the person approving it.
func register(tool func(opener) toolbox.Tool) {
	toolbox.Register(toolbox.Builtin{Skill: skillName, Make: func(w toolbox.With) (toolbox.Tool, bool) {
		var get opener
		switch v := w.Vault.(type) {
		case *Lazy:
			if v != nil {
				get = v.Vault
			}
		case opener:
			get = v
		}
		if get == nil {
			return toolbox.Tool{}, false
		}
		t := tool(get)
		if t.Risk == toolbox.RiskWrite {
			t.Preview = func(args json.RawMessage) (json.RawMessage, error) {
				v, err := get()
				if err != nil {
					return nil, err
				}
				c, err := v.Preview(t.Name, args)
				if err != nil || c == nil {
					return nil, err
				}
				return json.Marshal(c)
			}
		}
		return t, true
	}})
}
