package callback

import (
	"errors"
	"strconv"
	"testing"
	"time"
)

func TestReplayGuard(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	stamp := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	g := NewGuard(clock)
	cases := []struct {
		name      string
		timestamp string
		nonce     string
		want      error
	}{
		{"fresh", stamp(0), "n1", nil},
		{"same nonce again", stamp(0), "n1", ErrReplay},
		{"same nonce, other timestamp", stamp(time.Second), "n1", ErrReplay},
		{"other nonce", stamp(0), "n2", nil},
		{"five minutes old", stamp(-5 * time.Minute), "n3", nil},
		{"five minutes ahead", stamp(5 * time.Minute), "n4", nil},
		{"stale", stamp(-5*time.Minute - time.Second), "n5", ErrStale},
		{"from the future", stamp(5*time.Minute + time.Second), "n6", ErrStale},
		{"not a number", "yesterday", "n7", ErrMalformed},
		{"no nonce", stamp(0), "", ErrMalformed},
	}
	for _, tc := range cases {
		if err := g.Check(tc.timestamp, tc.nonce); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	// Once its timestamp could no longer pass, a nonce is forgotten.
	now = now.Add(11 * time.Minute)
	if err := g.Check(stamp(0), "n1"); err != nil {
		t.Fatalf("a nonce from long ago, with a fresh timestamp: %v", err)
	}
	if len(g.seen) != 1 {
		t.Fatalf("%d nonces kept after expiry, want 1", len(g.seen))
	}
}

// FreshAt takes a time in a platform's own unit (Feishu's milliseconds),
// within the same five minutes either way.
func TestGuard_FreshAt(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_123)
	g := NewGuard(func() time.Time { return now })
	cases := []struct {
		d    time.Duration
		want error
	}{
		{0, nil},
		{-5 * time.Minute, nil},
		{5 * time.Minute, nil},
		{-5*time.Minute - time.Millisecond, ErrStale},
		{5*time.Minute + time.Millisecond, ErrStale},
		{-365 * 24 * time.Hour, ErrStale},
	}
	for _, tc := range cases {
		if err := g.FreshAt(now.Add(tc.d)); !errors.Is(err, tc.want) {
			t.Errorf("%s away: %v, want %v", tc.d, err, tc.want)
		}
	}
}
