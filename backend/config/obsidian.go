package config

// Obsidian points the vault tools at a vault (issue 4).
type Obsidian struct{}

func (t Obsidian) validate() error { return nil }
