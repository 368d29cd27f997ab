package runner

import (
	"errors"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/contextmgr"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// ContextPreview shows which messages the next compression of a run will
// fold: for a live run as of its last checkpoint, for another from its
// checkpoint (ErrNoCheckpoint without one).
func (m *Manager) ContextPreview(id string) (contextmgr.Preview, error) {
	if l := m.liveRun(id); l != nil && l.run != nil {
		return l.run.ContextPreview(), nil
	}
	if m.isSample(id) {
		return contextmgr.Preview{}, i18n.Wrap(ErrNoCheckpoint, "runner.no_checkpoint", id)
	}
	path, err := runlog.Find(m.home, id)
	if err != nil {
		return contextmgr.Preview{}, err
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return contextmgr.Preview{}, err
	}
	cfg, err := m.config()
	if err != nil {
		return contextmgr.Preview{}, err
	}
	setup, err := previewSetup(m.home, cfg, runlog.Summarize(events).Model)
	if err != nil {
		return contextmgr.Preview{}, err
	}
	var p contextmgr.Preview
	err = m.withStore(func(s *store.Store) error {
		setup.Store = s
		p, err = agent.PreviewCheckpoint(setup, id)
		return err
	})
	if errors.Is(err, store.ErrNoCheckpoint) {
		return p, i18n.Wrap(ErrNoCheckpoint, "runner.no_checkpoint", id)
	}
	return p, err
}

// previewSetup is what estimating a stopped run's next request needs: the
// context limits as a run of model would get them, and the tools every run
// has, whose schemas count against the window.
func previewSetup(home string, cfg config.Config, model string) (agent.Setup, error) {
	tools, err := everyRunsTools(nil)
	if err != nil {
		return agent.Setup{}, err
	}
	window := cfg.Model.ContextWindow
	if window == 0 {
		window = config.ContextWindowFor(model)
	}
	c := cfg.Context
	return agent.Setup{
		Home: home, Tools: tools,
		Limits: agent.Limits{ContextWindow: window, RecentTurns: c.Recent(), CompressAt: c.CompressShare()},
	}, nil
}
