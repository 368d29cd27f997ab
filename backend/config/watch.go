package config

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/fsnotify/fsnotify"

	"hermes/backend/i18n"
)

// settle is how long the file must stay quiet before Watch reads it: an
// editor's save is a burst (write a temporary file, rename it over the old
// one, set its mode), and half of a burst is not a config.
const settle = 100 * time.Millisecond

// Watch follows the config file at path until ctx is done, so a running
// window, server or bot applies an edit without a restart.
//
// It watches the file's directory rather than the file, because editors save
// by renaming a new file over the old one, which a watch on the file itself
// would lose. Once a burst of changes has settled, the file is loaded and
// validated as on start:
//   - a valid config that differs from the last one (or that follows a
//     broken one) is passed to onChange;
//   - a broken one is passed to onError with every problem and its line, and
//     the last good config stays in force; so does a deleted file
//     (ErrRemoved).
//
// onChange gets the file's settings over the defaults; the caller layers
// the environment (ResolveEnv, Model.FromEnv) and its flags on top, as it
// did on start. The callbacks run one at a time on Watch's own goroutine.
// Watch returns once the watch is in place, or an error when it cannot be
// set up (the directory is missing, or the system is out of watches).
func Watch(ctx context.Context, path string, onChange func(Config), onError func(error)) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return i18n.Wrap(err, "config.watch.start", path, err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return i18n.Wrap(err, "config.watch.start", abs, err)
	}
	if err := fsw.Add(filepath.Dir(abs)); err != nil {
		_ = fsw.Close()
		return i18n.Wrap(err, "config.watch.start", abs, err)
	}
	w := &watcher{path: abs, onChange: onChange, onError: onError}
	if cfg, err := LoadValid(abs); err == nil {
		w.last = cfg
	} else {
		w.broken = true
	}
	go w.run(ctx, fsw)
	return nil
}

type watcher struct {
	path     string
	onChange func(Config)
	onError  func(error)
	last     Config // the config in force
	broken   bool   // the last reading failed, so the next good one is news
}

func (w *watcher) run(ctx context.Context, fsw *fsnotify.Watcher) {
	defer fsw.Close()
	quiet := time.NewTimer(settle)
	quiet.Stop()
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-fsw.Events:
			if !ok {
				return
			}
			if ev.Name == w.path && ev.Op != fsnotify.Chmod {
				quiet.Reset(settle)
			}
		case err, ok := <-fsw.Errors:
			if !ok {
				return
			}
			w.onError(i18n.Wrap(err, "config.watch.failed", w.path, err))
		case <-quiet.C:
			w.reload()
		}
	}
}

func (w *watcher) reload() {
	if _, err := os.Stat(w.path); errors.Is(err, fs.ErrNotExist) {
		w.broken = true
		w.onError(i18n.Wrap(ErrRemoved, "config.watch.removed", w.path))
		return
	}
	cfg, err := LoadValid(w.path)
	if err != nil {
		w.broken = true
		w.onError(err)
		return
	}
	if !w.broken && reflect.DeepEqual(cfg, w.last) {
		return // saved without a change, or a change undone within the burst
	}
	w.last, w.broken = cfg, false
	w.onChange(cfg)
}

// LoadValid is Load and Validate, as a start-up applies them.
func LoadValid(path string) (Config, error) {
	cfg, err := Load(path)
	if err != nil {
		return Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, i18n.Wrap(err, "config.invalid_in", path, err)
	}
	return cfg, nil
}
