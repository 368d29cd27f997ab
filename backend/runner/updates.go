package runner

import (
	"context"
	"log"
	"time"

	"hermes/backend/update"
)

// UpdateOptions say how this process offers an update.
type UpdateOptions struct {
	// Version is the running version, which the feed's releases are
	// compared with.
	Version string
	// Exe is the binary an update replaces; "" is the running one.
	Exe string
	// Restart: this process can install the update and start the new
	// version (the window). A browser cannot restart `hermes serve`, so its
	// notice says to run `hermes update` instead.
	Restart bool
}

// CheckForUpdates starts checking the feed when [update] says to check at
// start, and returns the checker (nil when it does not check). Once a newer
// release is found, the "update" notice shows its notes and the progress of
// its download, then that it is ready. A check that fails before any
// release is on offer (no network, say) stays out of the way: it is only
// logged.
func (m *Manager) CheckForUpdates(ctx context.Context, o UpdateOptions) (*update.Checker, error) {
	cfg, err := m.lastConfig()
	if err != nil || !cfg.Update.ChecksOnStart() {
		if err == nil {
			// The checker's first step would have removed what earlier
			// updates moved aside (Windows); without one, this start does.
			go func() {
				if err := update.Tidy(m.home, o.Exe); err != nil {
					log.Printf("update: %v", err)
				}
			}()
		}
		return nil, err
	}
	u, err := update.New(update.Options{
		Home: m.home, FeedURL: cfg.Update.FeedURL, PublicKey: cfg.Update.PublicKey,
		Channel: cfg.Update.Channel, Version: o.Version, Exe: o.Exe,
	})
	if err != nil {
		return nil, err
	}
	c := update.NewChecker(u, func(s update.Status) {
		if s.Version == "" {
			return // checking, up to date, or failed before finding a release
		}
		m.notices.Publish(Notice{ID: "update", Kind: NoticeUpdate, Time: time.Now(), Update: &s, Restart: o.Restart})
	})
	go func() {
		if err := c.Run(ctx); err != nil && ctx.Err() == nil {
			log.Printf("update check: %v", err)
		}
	}()
	return c, nil
}
