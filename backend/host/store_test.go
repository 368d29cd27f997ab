package host_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"hermes/backend/host"
	"hermes/backend/store"
)

// TestOpenStore_WaitsForTheOwner: a command's OpenStore fails with
// store.ErrLocked, which says what to do, while the owner holds hermes.db,
// and opens it once the owner has let go.
func TestOpenStore_WaitsForTheOwner(t *testing.T) {
	home := t.TempDir()
	h, err := host.Open(t.Context(), home, host.Bot, host.Options{MustOwn: true, HoldStore: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.OpenStore(home, 50*time.Millisecond); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("OpenStore while the owner holds hermes.db = %v, want ErrLocked", err)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := host.OpenStore(home, 0)
	if err != nil {
		t.Fatalf("OpenStore once the owner let go = %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}
