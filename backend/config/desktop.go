package config

// Desktop configures what the desktop window does on the desktop it runs
// on; `hermes serve` and `hermes bot` ignore it.
type Desktop struct {
	// Notify sends a notification when a run waits for an approval or an
	// answer, or ends, while the window is not in front.
	Notify bool `toml:"notify"`
}
