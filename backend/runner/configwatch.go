package runner

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// configState is the config new runs get: hermes.toml as last read while it
// was good. A broken edit never stops a run from starting once a good
// config was seen; the "config" notice says what is wrong instead.
type configState struct {
	mu   sync.Mutex
	good *config.Config
	// told is the mistake the notice in force shows, so that every start
	// on the same broken file does not tell it again.
	told string
}

// config returns the config for a new run: the file as it is now when it
// is good; else the last good one, with a notice that says why. A file that
// was never good is the error.
func (m *Manager) config() (config.Config, error) {
	path := m.configPath
	cfg, err := config.LoadValid(path)
	if err == nil && m.adjust != nil {
		m.adjust(&cfg)
	}
	m.conf.mu.Lock()
	defer m.conf.mu.Unlock()
	if err == nil {
		m.conf.good = &cfg
		return cfg, nil
	}
	if m.conf.good == nil {
		return config.Config{}, err
	}
	m.tellBroken(path, err)
	return *m.conf.good, nil
}

// lastConfig is the config as last read while good, which WatchConfig keeps
// current; the file as it is now when none was read yet. The update check
// at start takes it rather than reading the file again after the watch.
func (m *Manager) lastConfig() (config.Config, error) {
	m.conf.mu.Lock()
	good := m.conf.good
	m.conf.mu.Unlock()
	if good != nil {
		return *good, nil
	}
	return m.config()
}

// WatchConfig follows hermes.toml until ctx ends (config.Watch): a good edit
// becomes the config of the runs started from then on and is told as a
// "config reloaded" notice that says the tools new runs get when it changed
// them (reloaded); a broken one keeps the last good config and
// puts up a notice with each mistake and its place, which stays until the
// file is fixed. A file that is broken now is told at once.
func (m *Manager) WatchConfig(ctx context.Context) error {
	path := m.configPath
	if _, err := m.config(); err != nil {
		m.conf.mu.Lock()
		m.tellBroken(path, err)
		m.conf.mu.Unlock()
	}
	return config.Watch(ctx, path, func(cfg config.Config) {
		told := cfg
		if m.adjust != nil {
			m.adjust(&cfg)
		}
		m.conf.mu.Lock()
		prev := m.conf.good
		m.conf.good, m.conf.told = &cfg, ""
		m.conf.mu.Unlock()
		if m.onConfig != nil {
			m.onConfig(told, nil)
		}
		m.notices.Publish(m.reloaded(path, prev, cfg))
	}, func(err error) {
		m.conf.mu.Lock()
		m.tellBroken(path, err)
		m.conf.mu.Unlock()
		if m.onConfig != nil {
			m.onConfig(config.Config{}, err)
		}
	})
}

// tellBroken puts up the notice of a broken config, once for each new
// mistake. It runs under m.conf.mu.
func (m *Manager) tellBroken(path string, err error) {
	problems := configProblems(path, err)
	var told string
	for _, p := range problems {
		told += p.Message[string(i18n.EN)] + "\n"
	}
	if told == m.conf.told {
		return
	}
	m.conf.told = told
	key := "runner.config.broken"
	if m.conf.good == nil {
		key = "runner.config.broken_no_good"
	}
	m.notices.Publish(Notice{
		ID: "config", Kind: NoticeConfigError, Time: time.Now(), Path: path,
		Message: bilingual(i18n.Errorf(key, path)), Problems: problems,
	})
}

// configProblems lists every mistake in the file with its place, as
// `hermes config check` does; err itself when the file says nothing more
// (it was removed, or cannot be read).
func configProblems(path string, err error) []ConfigProblem {
	errs := []error{err}
	if !errors.Is(err, config.ErrRemoved) {
		if found := config.Check(path); len(found) > 0 {
			errs = found
		}
	}
	out := make([]ConfigProblem, 0, len(errs))
	for _, e := range errs {
		line, col := position(e)
		out = append(out, ConfigProblem{Line: line, Column: col, Message: bilingual(e)})
	}
	return out
}

// position finds the line and column that config put among the arguments
// of one of the messages in err's chain.
func position(err error) (line, col int) {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ie, ok := e.(*i18n.Error); ok {
			for _, a := range ie.Args {
				if line, col, ok := placeOf(a); ok {
					return line, col
				}
			}
		}
	}
	return 0, 0
}

// placeOf reads config's place in a file, which it keeps unexported: a
// struct of two ints, line then column.
func placeOf(a any) (line, col int, ok bool) {
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Struct || v.Type().PkgPath() != "hermes/backend/config" || v.NumField() != 2 ||
		v.Field(0).Kind() != reflect.Int || v.Field(1).Kind() != reflect.Int {
		return 0, 0, false
	}
	return int(v.Field(0).Int()), int(v.Field(1).Int()), true
}

// bilingual renders a config mistake in both languages. config renders
// the place of a mistake in the process's language, so it is rendered here
// in each language instead.
func bilingual(err error) map[string]string {
	return map[string]string{string(i18n.EN): configMessageIn(i18n.EN, err), string(i18n.ZH): configMessageIn(i18n.ZH, err)}
}

func configMessageIn(lang i18n.Lang, err error) string {
	var ie *i18n.Error
	if _, joined := err.(interface{ Unwrap() []error }); joined || !errors.As(err, &ie) {
		return i18n.MessageIn(lang, err)
	}
	args := make([]any, len(ie.Args))
	for i, a := range ie.Args {
		if e, ok := a.(error); ok {
			a = configMessageIn(lang, e)
		} else if line, col, ok := placeOf(a); ok {
			a = i18n.In(lang, "config.pos", line, col)
		}
		args[i] = a
	}
	return i18n.In(lang, ie.Key, args...)
}
