package chatapitest

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestChanges_WaitWakesOnNotify(t *testing.T) {
	var (
		mu sync.Mutex
		c  Changes
		n  int
	)
	done := make(chan error)
	go func() { done <- c.Wait(t.Context(), &mu, func() bool { return n == 3 }) }()
	for range 3 {
		mu.Lock()
		n++
		c.Notify()
		mu.Unlock()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Wait(ctx, &mu, func() bool { return false }); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
}

func TestWindow_CountsTheLastSecond(t *testing.T) {
	var w Window
	for i := 1; i <= 5; i++ {
		if got := w.Arrive(); got != i {
			t.Fatalf("call %d counted as %d", i, got)
		}
	}
}
