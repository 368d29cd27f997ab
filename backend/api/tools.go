package api

// Toolset is what a new run is offered besides the file tools, as
// hermes.toml says now: the vault, the skills and the MCP servers with
// their state (an edit of hermes.toml applies to the next run).
type Toolset struct {
	// Vault is the vault's folder; "" when no vault is set.
	Vault string `json:"vault,omitempty"`
	// Skills are the built-in skills, the user's own, then the MCP servers
	// of [[tools.mcp]] (source "hermes.toml").
	Skills []SkillState `json:"skills"`
	// Error says why new runs cannot start with these settings (a vault
	// folder that is not there), until they are fixed.
	Error *Error `json:"error,omitempty"`
}

// SkillState is one skill as new runs get it.
type SkillState struct {
	Name string `json:"name"`
	// Source is "builtin", "hermes.toml" for a [[tools.mcp]] server, or the
	// folder of one of the user's skills.
	Source string `json:"source"`
	// Runner is "builtin", "command" or "mcp".
	Runner string `json:"runner"`
	// Status is "loaded", "disabled" (turned off in [tools]),
	// "unavailable" (not for this platform, or not set up) or "broken".
	Status string `json:"status"`
	// Tools are the names of its tools that new runs get.
	Tools []string `json:"tools,omitempty"`
	// Problem says why it is not loaded, or which of its tools were left
	// out, in both languages ("en", "zh-CN").
	Problem map[string]string `json:"problem,omitempty"`
}
