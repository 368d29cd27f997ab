package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// damagedStore is the error of opening a hermes.db cut short.
func damagedStore(t *testing.T) error {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	_, err = store.Open(path)
	if err == nil {
		t.Fatal("a store cut short opened")
	}
	return err
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   string
		en, zh string
	}{
		{"a wrapped runner error", fmt.Errorf("control: %w", i18n.Wrap(ErrNotLive, "runner.not_live", "r1")), "not_live", "run r1 is not running", "运行 r1 未在进行"},
		{"a log error", i18n.Wrap(runlog.ErrRunNotFound, "runlog.not_found", "r2", "/home"), "run_not_found", "r2", "r2"},
		{"config mistakes joined", errors.Join(
			i18n.Wrap(config.ErrInvalid, "config.invalid.min", "[agent] max_iterations", 0, 1),
			i18n.Wrap(config.ErrInvalid, "config.invalid.model"),
		), "config_error", "max_iterations", "max_iterations"},
		{"an unknown error", errors.New("disk on fire"), "internal", "disk on fire", "disk on fire"},
		{"a damaged store", damagedStore(t), "store_damaged", "hermes doctor --salvage", "hermes doctor --salvage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Explain(tt.err)
			if e.Code != tt.code {
				t.Fatalf("Explain = %s, want %s", e.Code, tt.code)
			}
			if !strings.Contains(e.Message["en"], tt.en) || !strings.Contains(e.Message["zh-CN"], tt.zh) {
				t.Errorf("messages %q", e.Message)
			}
		})
	}
	joined := Explain(errors.Join(i18n.Errorf("runner.no_task"), i18n.Errorf("runner.no_workspace")))
	if want := i18n.In(i18n.EN, "runner.no_task") + "; " + i18n.In(i18n.EN, "runner.no_workspace"); joined.Message["en"] != want {
		t.Errorf("joined errors read %q, want %q", joined.Message["en"], want)
	}
	if got := string(Explain(ErrClosed).JSON()); got != `{"error":{"code":"shutting_down","message":{"en":"runner shut down","zh-CN":"runner shut down"}}}` {
		t.Errorf("JSON %s", got)
	}
}
