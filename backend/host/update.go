package host

import (
	"context"
	"os"

	"hermes/backend/i18n"
	"hermes/backend/update"
)

// InstallUpdate installs the update the owner downloaded and starts the new
// version: the live runs stop at a safe point first (cancelled when grace
// ends), and the database is let go, since the new version's health check
// opens it. The caller then quits. If the install fails, the old version is
// back in place and the error says to restart Hermes.
func (h *Host) InstallUpdate(grace context.Context) error {
	h.mu.Lock()
	checker := h.checker
	h.mu.Unlock()
	if checker == nil || checker.Status().State != update.StateReady {
		return i18n.Wrap(update.ErrNotReady, "host.update.not_ready")
	}
	_ = h.manager.Shutdown(grace) // past the grace the runs are cancelled; resume redoes their iteration
	if err := checker.Apply(context.Background()); err != nil {
		return i18n.Wrap(err, "host.update.failed", err)
	}
	exe, err := os.Executable()
	if err == nil {
		err = update.Relaunch(exe, os.Args[1:])
	}
	if err != nil {
		return i18n.Wrap(err, "host.update.relaunch", err)
	}
	return nil
}
