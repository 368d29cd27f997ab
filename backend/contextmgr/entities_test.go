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
		{"no pieces of base64", "data: oguKMICIxTC/Ho+fLLRzzBZKjZujGSmZNVnt6dtpcWeDAZ0XiCQb9C9RD4oZai1kexotxwo4ejaP done", nil},
		{"no hex digests", "sha256 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9 of blob.bin", []string{"sha256", "blob.bin"}},
		{"no UUIDs", "session befacbdf-518e-4dba-af19-39dc7379c95a began", nil},
		{"a URL is kept whole", "get https://dl.test/f?sig=Zk9x3QpLm2Rt7VbN8cWq1Ey5 now", []string{"https://dl.test/f?sig=Zk9x3QpLm2Rt7VbN8cWq1Ey5"}},
		{"camelCase is a word", "call getUserAccountByIdentifier2 at 10:30", []string{"getUserAccountByIdentifier2", "10:30"}},
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

func TestRandom(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"5feceb66ffc86f38d952786c6d696c79", true},
		{"oguKMICIxTC/Ho+fLLRzzBZKjZujGSmZ", true},
		{"befacbdf-518e-4dba-af19-39dc7379c95a", true},
		{"sk-proj-Zk9x3QpLm2Rt7VbN8cWq1Ey5", true},
		{"INV-2024-0042", false},
		{"a1b2c3d4", false},
		{"getUserAccountByIdentifierFromCache", false},
		{"/srv/archive/ledger-2026-03-14.db", false},
		{"backend/contextmgr/entities.go", false},
		{"20260314093000123456", false},
	} {
		if got := Random(c.v); got != c.want {
			t.Errorf("Random(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestSelect(t *testing.T) {
	hash := "5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9"
	other := "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b"
	candidates := []string{"2026-03-14", other, "report.csv", hash, "ACC-9981", "/srv/out/labels.pdf"}
	focus := "Find the blob whose checksum is " + hash + `\n{"path":"/srv/out/labels.pdf"}`
	cases := []struct {
		name   string
		budget int
		want   []string
	}{
		{"named first, then kept, then in order; random only when named", 1000, []string{hash, "/srv/out/labels.pdf", "ACC-9981", "2026-03-14", "report.csv"}},
		{"the budget cuts from the end", Estimate(hash) + 1 + Estimate("/srv/out/labels.pdf") + 1 + Estimate("ACC-9981") + 1, []string{hash, "/srv/out/labels.pdf", "ACC-9981"}},
		{"no budget, nothing kept", 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Select(candidates, focus, []string{"ACC-9981"}, c.budget); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Select = %q, want %q", got, c.want)
			}
		})
	}
}
