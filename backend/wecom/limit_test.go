package wecom

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		limit int
		parts int
	}{
		{"short", "hello", 2048, 1},
		{"empty", "", 2048, 1},
		{"exact", strings.Repeat("a", 2048), 2048, 1},
		{"one over", strings.Repeat("a", 2049), 2048, 2},
		{"chinese never cut", strings.Repeat("中", 1000), 2048, 2}, // 3 bytes each
		{"lines", strings.Repeat("line of text\n", 400), 2048, 3},
		{"emoji with a tiny limit", "😀😀", 3, 2},
	}
	for _, tc := range cases {
		parts := split(tc.text, tc.limit)
		if len(parts) != tc.parts {
			t.Errorf("%s: %d parts, want %d", tc.name, len(parts), tc.parts)
		}
		if strings.Join(parts, "") != tc.text {
			t.Errorf("%s: parts do not add up to the text", tc.name)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Errorf("%s: part %q cuts a character", tc.name, p)
			}
			if len(p) > tc.limit && utf8.RuneCountInString(p) > 1 {
				t.Errorf("%s: part of %d bytes over the limit %d", tc.name, len(p), tc.limit)
			}
		}
	}
	// A break falls at a line end when one is near.
	parts := split(strings.Repeat("line of text\n", 400), 2048)
	if !strings.HasSuffix(parts[0], "\n") {
		t.Fatalf("first part ends %q, want a line break", parts[0][len(parts[0])-5:])
	}
}

func TestLimiter_CountsCallsUntilPerAfterTheyEnd(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	now := t0
	l := newLimiter(2, time.Second, func() time.Time { return now })
	done1, _ := l.acquire(t.Context())
	done2, _ := l.acquire(t.Context())
	// Two in flight: a third waits, however long they take.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.acquire(ctx); err == nil {
		t.Fatal("a third call started while two were in flight")
	}
	now = now.Add(10 * time.Second)
	done1()
	if _, err := l.acquire(ctx); err == nil {
		t.Fatal("a call started less than per after another ended")
	}
	now = now.Add(time.Second)
	done3, err := l.acquire(ctx)
	if err != nil {
		t.Fatalf("a call could not start per after one ended: %v", err)
	}
	done2()
	done3()
	if l.idle() {
		t.Fatal("idle right after calls ended")
	}
	now = now.Add(time.Second)
	if !l.idle() {
		t.Fatal("not idle per after the last call ended")
	}
}

func TestLimiter_WaiterWakesWhenAPlaceFrees(t *testing.T) {
	l := newLimiter(1, 20*time.Millisecond, time.Now)
	done, _ := l.acquire(t.Context())
	got := make(chan error, 1)
	go func() {
		d, err := l.acquire(t.Context())
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
func waitQueued(l *limiter, n int) {
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
	l := newLimiter(1, 0, time.Now)
	done, _ := l.acquire(t.Context())
	quitter, quit := context.WithCancel(t.Context())
	quitErr := make(chan error, 1)
	go func() {
		_, err := l.acquire(quitter)
		quitErr <- err
	}()
	waitQueued(l, 1)
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			d, err := l.acquire(t.Context())
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
