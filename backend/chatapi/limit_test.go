package chatapi

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

func TestLimiter_CountsCallsUntilPerAfterTheyEnd(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	now := t0
	l := NewLimiter(2, time.Second, func() time.Time { return now })
	done1, _ := l.Acquire(t.Context())
	done2, _ := l.Acquire(t.Context())
	// Two in flight: a third waits, however long they take.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.Acquire(ctx); err == nil {
		t.Fatal("a third call started while two were in flight")
	}
	now = now.Add(10 * time.Second)
	done1()
	if _, err := l.Acquire(ctx); err == nil {
		t.Fatal("a call started less than per after another ended")
	}
	now = now.Add(time.Second)
	done3, err := l.Acquire(ctx)
	if err != nil {
		t.Fatalf("a call could not start per after one ended: %v", err)
	}
	done2()
	done3()
	if l.Idle() {
		t.Fatal("idle right after calls ended")
	}
	now = now.Add(time.Second)
	if !l.Idle() {
		t.Fatal("not idle per after the last call ended")
	}
}

func TestLimiter_WaiterWakesWhenAPlaceFrees(t *testing.T) {
	l := NewLimiter(1, 20*time.Millisecond, time.Now)
	done, _ := l.Acquire(t.Context())
	got := make(chan error, 1)
	go func() {
		d, err := l.Acquire(t.Context())
		if err == nil {
			d()
		}
		got <- err
	}()
	done()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// waitQueued waits until n callers wait on l.
func waitQueued(l *Limiter, n int) {
	for {
		l.mu.Lock()
		queued := len(l.queue)
		l.mu.Unlock()
		if queued == n {
			return
		}
		runtime.Gosched()
	}
}

// Waiters get places in the order they came, and one that gives up (its
// context ends) while first in line lets the next one through.
func TestLimiter_FirstComeFirstServed(t *testing.T) {
	l := NewLimiter(1, 0, time.Now)
	done, _ := l.Acquire(t.Context())
	quitter, quit := context.WithCancel(t.Context())
	quitErr := make(chan error, 1)
	go func() {
		_, err := l.Acquire(quitter)
		quitErr <- err
	}()
	waitQueued(l, 1)
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			d, err := l.Acquire(t.Context())
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			d()
		}()
		waitQueued(l, i+2)
	}
	quit()
	if err := <-quitErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("the waiter that gave up got %v", err)
	}
	done()
	for want := range 3 {
		if got := <-order; got != want {
			t.Fatalf("waiter %d got a place before waiter %d", got, want)
		}
	}
}
