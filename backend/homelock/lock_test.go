package homelock

import (
	"encoding/json"
	"testing"
	"time"
)

// A lock is written as json.Marshal writes it, whatever its strings hold,
// and reads back the same.
func TestLock_EncodesAsMarshalDoes(t *testing.T) {
	started := time.Date(2026, 12, 5, 18, 4, 5, 123000000, time.UTC)
	for _, l := range []Lock{
		{PID: 4242, Addr: "127.0.0.1:53117", Token: "9f86d081884c7d659a2feaa0c55ad015", Mode: "run", Started: started},
		{PID: 1, Addr: "[::1]:8700", Token: `quote " back\slash <tag> & 主目录 ` + "\t\x01", Mode: "desktop", Started: started.Add(-time.Hour)},
		{PID: 99999, Addr: "", Token: "", Mode: "", Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		want, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.encode(); string(got) != string(want) {
			t.Errorf("encode:\n got %s\nwant %s", got, want)
		}
		var back Lock
		if err := json.Unmarshal(l.encode(), &back); err != nil || back != l {
			t.Errorf("read back %+v, %v; want %+v", back, err, l)
		}
	}
}
