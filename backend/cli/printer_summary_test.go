package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// manyValues are n values, as a compression of random text once kept.
func manyValues(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("v%d", i)
	}
	return out
}

// TestPrinter_SummaryEntities: however many values a compression kept, the
// terminal gives their count and names the first few, the new ones first.
func TestPrinter_SummaryEntities(t *testing.T) {
	cases := []struct {
		name string
		lang i18n.Lang
		data event.SummaryUpdatedData
		want string
	}{
		{"hundreds", i18n.EN, event.SummaryUpdatedData{TurnsFolded: 4, TokensBefore: 21000, TokensAfter: 12000, Entities: manyValues(1200), EntitiesAdded: manyValues(300)},
			"⇲ context compressed: 4 turns folded into the summary, 21k → 12k tokens\n  kept beside the summary: 1200 values, 300 new: v0, v1, v2, v3, v4, … 295 more"},
		{"none new", i18n.EN, event.SummaryUpdatedData{TurnsFolded: 2, TokensBefore: 9000, TokensAfter: 5000, Entities: manyValues(6)},
			"⇲ context compressed: 2 turns folded into the summary, 9k → 5k tokens\n  kept beside the summary: 6 values, 0 new: v0, v1, v2, v3, v4, … 1 more"},
		{"none kept", i18n.EN, event.SummaryUpdatedData{TurnsFolded: 2, TokensBefore: 9000, TokensAfter: 5000},
			"⇲ context compressed: 2 turns folded into the summary, 9k → 5k tokens"},
		{"in Chinese", i18n.ZH, event.SummaryUpdatedData{TurnsFolded: 4, TokensBefore: 21000, TokensAfter: 12000, Entities: manyValues(40), EntitiesAdded: manyValues(7)},
			"  随摘要保留 40 个值，新增 7 个：v0, v1, v2, v3, v4, …… 另有 2 个"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			was := i18n.Current()
			i18n.SetLang(c.lang)
			t.Cleanup(func() { i18n.SetLang(was) })
			var out bytes.Buffer
			p := NewPrinter(&out, PrinterOptions{})
			emit := emitTo(t, p)
			emit(event.SummaryUpdated, 1, c.data)
			got := strings.TrimRight(out.String(), "\n")
			if c.lang != i18n.EN {
				got = got[strings.Index(got, "\n")+1:]
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
