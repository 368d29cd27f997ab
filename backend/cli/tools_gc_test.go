package cli

import (
	"runtime/debug"
	"testing"
)

// TestCollectLate: a tool call holds the collector back until the heap
// reaches oneCallMemory and restores the settings after; GOGC or
// GOMEMLIMIT set by the user are left to rule.
func TestCollectLate(t *testing.T) {
	gc := func() (int, int64) {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}
	wantPercent, wantLimit := gc()
	restore := collectLate(&Env{Getenv: func(string) string { return "" }})
	if p, limit := gc(); p != -1 || limit != oneCallMemory {
		t.Errorf("during a call: GOGC %d, limit %d; want off until %d", p, limit, int64(oneCallMemory))
	}
	restore()
	if p, limit := gc(); p != wantPercent || limit != wantLimit {
		t.Errorf("after: GOGC %d, limit %d; want %d, %d", p, limit, wantPercent, wantLimit)
	}
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		restore := collectLate(&Env{Getenv: func(k string) string {
			if k == name {
				return "200"
			}
			return ""
		}})
		if p, limit := gc(); p != wantPercent || limit != wantLimit {
			t.Errorf("%s set: GOGC %d, limit %d; want them untouched", name, p, limit)
		}
		restore()
	}
}
