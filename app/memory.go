package app

import (
	"hermes/backend/contextmgr"
	"hermes/backend/longterm"
)

// ContextPreview says which messages a run's next compression will fold.
func (a *App) ContextPreview(runID string) (contextmgr.Preview, error) {
	p, err := a.runs.ContextPreview(runID)
	return p, apiError(err)
}

// Memories lists up to limit long-term memories (0: 50), newest first.
func (a *App) Memories(limit int) ([]longterm.Entry, error) {
	entries, err := a.runs.Memories(limit)
	if err != nil {
		return nil, apiError(err)
	}
	if entries == nil {
		entries = []longterm.Entry{}
	}
	return entries, nil
}

// Memory returns one long-term memory.
func (a *App) Memory(id uint64) (longterm.Entry, error) {
	e, err := a.runs.Memory(id)
	return e, apiError(err)
}

// PinMemory pins a memory, so it never fades and is recalled for every
// task, or unpins it.
func (a *App) PinMemory(id uint64, pinned bool) error { return apiError(a.runs.PinMemory(id, pinned)) }

// ForgetMemory removes a memory for good.
func (a *App) ForgetMemory(id uint64) error { return apiError(a.runs.ForgetMemory(id)) }
