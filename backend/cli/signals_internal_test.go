package cli

import (
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestQuick: the commands that only read and print take no signals; every
// other one, and the window, does.
func TestQuick(t *testing.T) {
	for _, c := range []struct {
		args  []string
		quick bool
	}{
		{[]string{"version"}, true}, {[]string{"--help"}, true}, {[]string{"runs", "show", "x"}, true},
		{[]string{"config", "check"}, true}, {[]string{"tools", "list"}, true}, {[]string{"skills", "list"}, true},
		{nil, false}, {[]string{"run", "task"}, false}, {[]string{"serve"}, false}, {[]string{"bot"}, false},
		{[]string{"tools", "call", "read_file"}, false}, {[]string{"skills", "check"}, false}, {[]string{"resume", "x"}, false},
	} {
		if got := quick(c.args); got != c.quick {
			t.Errorf("quick(%q) = %v, want %v", c.args, got, c.quick)
		}
	}
}

// TestTakeSignals: the process takes SIGTERM once TakeSignals arms what
// Signals prepared, and a context from elsewhere arms nothing.
func TestTakeSignals(t *testing.T) {
	TakeSignals(context.Background())
	ctx, _, stop := Signals(io.Discard, time.Minute)
	defer stop()
	TakeSignals(ctx)
	TakeSignals(ctx)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the context")
	}
}
