package runner

import (
	"context"
	"os"
	"slices"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// Fork starts a new run from iteration N of run id: the model is asked again
// with the conversation it saw at N, under the edited task. The calls of
// the iterations before N are not run again; their recorded results stand.
// The fork asks the model at the endpoint the run recorded unless req names
// others. The new run records where it came from (run.started's
// forked_from), with the run's model and endpoint when it switched. A fork
// recalls no long-term memory and keeps none unless req asks it to, and
// then recalls only what was written before its source started (forkMemory).
// It works in the run's workspace unless req names another.
func (m *Manager) Fork(ctx context.Context, id string, req ForkRequest) (string, error) {
	if m.isSample(id) {
		return "", i18n.Wrap(ErrSample, "runner.sample")
	}
	memory := agent.MemoryOff
	if req.Memory != "" {
		var err error
		if memory, err = memoryUse(req.Memory); err != nil {
			return "", err
		}
	}
	events, err := m.Events(id)
	if err != nil {
		return "", err
	}
	p, err := forkAt(events, req.Iteration)
	if err != nil {
		return "", err
	}
	if req.Task != "" {
		p.task = req.Task
	}
	if req.Instructions != nil {
		p.instructions = *req.Instructions
	}
	if req.Workspace != "" {
		// As a new run's: "~/" is the user's home, and a folder that is not
		// there is refused.
		if p.workspace, err = m.resolveWorkspace(req.Workspace, config.Config{}); err != nil {
			return "", err
		}
	}
	if info, err := os.Stat(p.workspace); err != nil || !info.IsDir() {
		return "", i18n.Wrap(ErrBadWorkspace, "runner.fork_workspace", p.workspace)
	}
	cfg, err := m.config()
	if err != nil {
		return "", err
	}
	o, err := keepModel(cfg.Model, m.getenv, id, events, Overrides{Model: req.Model, BaseURL: req.BaseURL})
	if err != nil {
		return "", err
	}
	setup, err := m.build(ctx, cfg, o)
	if err != nil {
		return "", err
	}
	from := &event.ForkRef{RunID: id, Iteration: req.Iteration}
	if model, base := recordedModel(events); model != "" && (model != setup.ModelName || base != setup.BaseURL) {
		from.FromModel, from.FromBaseURL = model, base
	}
	t := agent.Task{Text: p.task, Instructions: p.instructions, Workspace: p.workspace, Turns: p.turns, ForkedFrom: from, Memory: memory}
	if memory != agent.MemoryOff {
		t.MemoryAsOf = memoryAsOf(events)
	}
	return m.launch(setup, "", func(s agent.Setup, sinks []event.Sink) (*agent.Run, error) {
		return agent.NewRun(s, t, sinks...)
	}, func(l *liveRun, run *agent.Run) error {
		// Lists show the link without reading the log; the log has it too,
		// so a failed write costs only that.
		_ = writeMeta(run.LogPath(), meta{ForkedFrom: from})
		return nil
	}, Hooks{})
}

// memoryUse is a run's memory mode as a request gives it: "" for
// [context] memory's.
func memoryUse(mode string) (agent.MemoryUse, error) {
	switch m := agent.MemoryUse(mode); m {
	case "", agent.MemoryOn, agent.MemoryRead, agent.MemoryOff:
		return m, nil
	}
	return "", i18n.Wrap(ErrInvalidMemory, "runner.bad_memory", mode)
}

// memoryAsOf is when the memory a fork of a run recalls stood: when the run
// started, so that the fork recalls nothing the run (or a later one) wrote,
// and what it recalled then; for a fork of a fork, as of that fork's time.
func memoryAsOf(events []event.Event) time.Time {
	for _, e := range events {
		if e.Type != event.RunStarted {
			continue
		}
		if d, err := event.Decode[event.RunStartedData](e); err == nil && d.Memory != nil && !d.Memory.AsOf.IsZero() {
			return d.Memory.AsOf
		}
		return e.Time
	}
	return time.Time{}
}

// forkPoint is a run as it stood when iteration N's request was built.
type forkPoint struct {
	task, instructions, workspace string
	turns                         []llm.Message
}

// forkAt rebuilds the conversation of iteration n's request from the
// context.built events up to it (each holds the messages added since the one
// before, or all of them when full), with the task as edited by then. The
// layers before the turns are, in order: system prompt, anchor, summary and
// memory, the last two only when their layer has tokens.
func forkAt(events []event.Event, n int) (forkPoint, error) {
	var p forkPoint
	var msgs []llm.Message
	for _, e := range events {
		if e.Iteration > n {
			break
		}
		switch e.Type {
		case event.RunStarted:
			if d, err := event.Decode[event.RunStartedData](e); err == nil {
				p.task, p.instructions, p.workspace = d.Task, d.Instructions, d.Workspace
			}
		case event.TaskEdited:
			if d, err := event.Decode[event.TaskEditedData](e); err == nil {
				p.task, p.instructions = d.NewTask, d.NewInstructions
			}
		case event.ContextBuilt:
			d, err := event.Decode[event.ContextBuiltData](e)
			if err != nil {
				return p, err
			}
			if d.Full {
				msgs = slices.Clone(d.Messages)
			} else {
				msgs = append(msgs, d.Messages...)
			}
			if e.Iteration == n {
				p.turns = conversation(msgs, d.Layers)
				return p, nil
			}
		}
	}
	return p, i18n.Wrap(ErrBadIteration, "runner.bad_iteration", n)
}

// conversation drops from a request what the new run lays out itself: the
// system prompt, the task anchor and the recalled long-term memory. A
// rolling summary, which stands for turns the request no longer holds, is
// kept as the first turn.
func conversation(msgs []llm.Message, l event.Layers) []llm.Message {
	i := 0
	for i < len(msgs) && msgs[i].Role == llm.RoleSystem {
		i++
	}
	i = min(i+1, len(msgs)) // the anchor
	var out []llm.Message
	if l.Summary > 0 && i < len(msgs) {
		out = append(out, msgs[i])
		i++
	}
	if l.Memory > 0 && i < len(msgs) {
		i++
	}
	return append(out, msgs[i:]...)
}
