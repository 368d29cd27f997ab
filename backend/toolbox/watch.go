package toolbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the user's skills folder must be quiet before it is
// read again: an editor's save is a burst of events (write, rename, chmod).
const settle = 100 * time.Millisecond

// Watch reloads the skills whenever something in the user's skills folder
// changes, and calls notify with the skills as reloaded, after each burst of
// changes has settled. It creates the folder if need be and watches it and
// each skill folder in it (fsnotify is not recursive) until ctx ends.
func (c *Catalog) Watch(ctx context.Context, notify func([]Skill)) error {
	return c.WatchFolder(ctx, func() {
		skills := c.Reload(ctx)
		if notify != nil {
			notify(skills)
		}
	})
}

// WatchFolder is Watch that calls changed instead of reloading, for a
// caller that reloads in its own way (Refresh); changed calls come one at
// a time.
func (c *Catalog) WatchFolder(ctx context.Context, changed func()) error {
	dir := c.opts.UserDir
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("watch skills %s: %w", dir, err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch skills %s: %w", dir, err)
	}
	if err := w.Add(dir); err != nil {
		_ = w.Close()
		return fmt.Errorf("watch skills %s: %w", dir, err)
	}
	watchSubdirs(w, dir)

	var mu sync.Mutex // one reload at a time, in the order the timer fires
	reload := func() {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		watchSubdirs(w, dir)
		changed()
	}
	go func() {
		defer w.Close()
		var timer *time.Timer
		defer func() {
			if timer != nil {
				timer.Stop()
			}
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-w.Events:
				if !ok {
					return
				}
				if timer == nil {
					timer = time.AfterFunc(settle, reload)
				} else {
					timer.Reset(settle)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return nil
}

// watchSubdirs adds each skill folder in dir; adding one twice is harmless.
func watchSubdirs(w *fsnotify.Watcher, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			_ = w.Add(filepath.Join(dir, e.Name()))
		}
	}
}
