package cluster

import (
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/event"
)

// TestPack_HistoryRepliesStayUnderNATSLimit: a run's history goes in
// replies under historyLimit, the last one saying whether the leg ended;
// an event bigger than the limit goes alone.
func TestPack_HistoryRepliesStayUnderNATSLimit(t *testing.T) {
	big := json.RawMessage(`"` + strings.Repeat("x", 100<<10) + `"`)
	var events []event.Event
	for i := range 5 {
		events = append(events, event.Event{Seq: int64(i + 1), Data: big})
	}
	var got []int64
	for rest := events; ; {
		r := pack(rest, true)
		size := 0
		for _, e := range r.Events {
			got = append(got, e.Seq)
			size += len(e.Data)
		}
		if size > historyLimit || len(r.Events) == 0 {
			t.Fatalf("a reply of %d events, %d bytes", len(r.Events), size)
		}
		rest = rest[len(r.Events):]
		if !r.More {
			if !r.Ended || len(rest) != 0 {
				t.Fatalf("the last reply: ended %v, %d events left", r.Ended, len(rest))
			}
			break
		}
		if r.Ended {
			t.Fatal("a reply with more to come says the leg ended")
		}
	}
	if len(got) != 5 || got[0] != 1 || got[4] != 5 {
		t.Fatalf("sent %v", got)
	}
	huge := []event.Event{{Seq: 1, Data: json.RawMessage(`"` + strings.Repeat("y", historyLimit+1) + `"`)}, {Seq: 2, Data: big}}
	if r := pack(huge, false); len(r.Events) != 1 || !r.More {
		t.Fatalf("an event over the limit: %d events, more %v", len(r.Events), r.More)
	}
}
