package chatapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestToken_FetchedOnceForManyCallersAndRenewedEarly(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tok := NewToken(clock)
	var fetches atomic.Int32
	release := make(chan struct{})
	fetch := func(context.Context) (string, time.Time, error) {
		<-release
		n := fetches.Add(1)
		return "tok-" + string(rune('0'+n)), RenewAt(clock(), 2*time.Hour), nil
	}
	var wg sync.WaitGroup
	got := make([]string, 20)
	for i := range got {
		wg.Go(func() {
			var err error
			if got[i], err = tok.Get(t.Context(), fetch); err != nil {
				t.Error(err)
			}
		})
	}
	close(release)
	wg.Wait()
	for _, g := range got {
		if g != "tok-1" {
			t.Fatalf("callers got %q", got)
		}
	}
	// A two-hour token is renewed five minutes early, not at its end.
	mu.Lock()
	now = now.Add(2*time.Hour - 5*time.Minute)
	mu.Unlock()
	if g, _ := tok.Get(t.Context(), fetch); g != "tok-2" || fetches.Load() != 2 {
		t.Fatalf("after 1h55m: %q after %d fetches", g, fetches.Load())
	}
	// Dropping a token already replaced keeps the newer one.
	tok.Drop("tok-1")
	if g, _ := tok.Get(t.Context(), fetch); g != "tok-2" {
		t.Fatalf("a stale drop lost the token: %q", g)
	}
	tok.Drop("tok-2")
	if g, _ := tok.Get(t.Context(), fetch); g != "tok-3" {
		t.Fatalf("after a drop: %q", g)
	}
	if RenewAt(now, time.Minute) != now.Add(54*time.Second) {
		t.Fatal("a short-lived token is renewed a tenth of its life early")
	}
}

func TestToken_AFailedFetchIsNotCachedAndACallerMayLeave(t *testing.T) {
	tok := NewToken(nil)
	bad := errors.New("wrong secret")
	if _, err := tok.Get(t.Context(), func(context.Context) (string, time.Time, error) { return "", time.Time{}, bad }); err != bad {
		t.Fatalf("err %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	block := make(chan struct{})
	defer close(block)
	if _, err := tok.Get(ctx, func(context.Context) (string, time.Time, error) { <-block; return "", time.Time{}, nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled caller got %v", err)
	}
}

func TestRetry_BacksOffUntilDoneOrMaxAttempts(t *testing.T) {
	busy := errors.New("busy")
	var waits []int
	backoff := func(n int) time.Duration { waits = append(waits, n); return 0 }
	tries := 0
	err := Retry(t.Context(), backoff, func() Try {
		tries++
		if tries < 3 {
			return Try{Err: busy, Again: true}
		}
		return Try{}
	})
	if err != nil || tries != 3 || len(waits) != 2 {
		t.Fatalf("err %v after %d tries, %d waits", err, tries, len(waits))
	}
	tries, waits = 0, nil
	err = Retry(t.Context(), backoff, func() Try { tries++; return Try{Err: busy, Again: true} })
	if err != busy || tries != MaxAttempts || len(waits) != MaxAttempts-1 {
		t.Fatalf("err %v after %d tries, %d waits", err, tries, len(waits))
	}
	// A wait the platform named is used instead of the backoff, and told
	// to Hold first.
	tries, waits = 0, nil
	var held []time.Duration
	err = Retry(t.Context(), backoff, func() Try {
		tries++
		if tries == 1 {
			return Try{Err: busy, Again: true, Wait: time.Millisecond, Hold: func(d time.Duration) { held = append(held, d) }}
		}
		return Try{}
	})
	if err != nil || len(waits) != 0 || len(held) != 1 || held[0] != time.Millisecond {
		t.Fatalf("err %v, backoffs %v, held %v", err, waits, held)
	}
	// A final error is not retried, and a cancelled wait ends the call.
	tries = 0
	if err := Retry(t.Context(), backoff, func() Try { tries++; return Try{Err: busy} }); err != busy || tries != 1 {
		t.Fatalf("err %v after %d tries", err, tries)
	}
	ctx, cancel := context.WithCancel(t.Context())
	err = Retry(ctx, func(int) time.Duration { cancel(); return time.Hour }, func() Try { return Try{Err: busy, Again: true} })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait: %v", err)
	}
}

func TestBackoff_DoublesWithJitterUpTo5s(t *testing.T) {
	for n, want := range map[int]time.Duration{1: 200 * time.Millisecond, 2: 400 * time.Millisecond, 6: 5 * time.Second, 30: 5 * time.Second} {
		for range 20 {
			if d := Backoff(n); d < want/2 || d > want {
				t.Fatalf("Backoff(%d) = %v, want %v..%v", n, d, want/2, want)
			}
		}
	}
}

func TestPacer_SpacesCallsAndHolds(t *testing.T) {
	p := NewPacer(1000) // 1 ms apart
	start := time.Now()
	for range 20 {
		if err := p.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d < 19*time.Millisecond {
		t.Fatalf("20 calls at 1000/s took %v", d)
	}
	p.Hold(time.Hour)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := p.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a call started while held: %v", err)
	}
}

func TestDo_ErrorsNeverHoldTheAddress(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // nothing listens any more
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/gettoken?corpsecret=s3cret-value", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Do(srv.Client(), req)
	if err == nil || strings.Contains(err.Error(), "s3cret-value") || strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("error %v", err)
	}
}
