package contextmgr

import (
	"reflect"
	"testing"
)

func TestEntities(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"url", "See https://example.test/docs/a?b=1, then stop.", []string{"https://example.test/docs/a?b=1"}},
		{"unix path", "The report is at /srv/data/2026/report.csv.", []string{"/srv/data/2026/report.csv"}},
		{"relative path and file", "Edit notes/todo.md and main.go", []string{"notes/todo.md", "main.go"}},
		{"windows path", `Saved to C:\Users\me\out.txt`, []string{`C:\Users\me\out.txt`}},
		{"dates", "Due 2026-03-14, moved to 2026-03-21T09:30:00Z; 2026年3月14日", []string{"2026-03-14", "2026-03-21T09:30:00Z", "2026年3月14日"}},
		{"ids", "Invoice INV-2024-0042 for order a1b2c3d4", []string{"INV-2024-0042", "a1b2c3d4"}},
		{"amounts", "Total $1,234.56 (up 12.5%) over 3 items, 4096 rows", []string{"$1,234.56", "12.5%", "4096"}},
		{"small numbers are noise", "Step 2 of 3 took 15 seconds", nil},
		{"each value once", "port 5433 and again 5433", []string{"5433"}},
		{"plain prose", "Nothing to keep here, just words.", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Entities(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Entities(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	got := Missing([]string{"INV-7", "/a/b.txt", "2026-01-02"}, "kept /a/b.txt only")
	if !reflect.DeepEqual(got, []string{"INV-7", "2026-01-02"}) {
		t.Errorf("Missing = %q", got)
	}
}
