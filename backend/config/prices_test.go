package config

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestPrices_FileOverDefaults(t *testing.T) {
	cfg, err := Load(writeConfig(t, `version = 1
[prices."deepseek-chat"]
input = 2
cached_input = 0.5
output = 8
currency = "CNY"

[prices."my-local"]
input = 0
output = 0
currency = "USD"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	table := cfg.PriceTable()
	if p, ok := table.For("deepseek-chat"); !ok || p.Input != 2 || p.Currency != "CNY" {
		t.Fatalf("deepseek-chat = %+v, %v; want the file's entry", p, ok)
	}
	if _, ok := table.For("my-local"); !ok {
		t.Fatal("a model the file adds has no price")
	}
	if p, ok := table.For("gpt-4o-mini"); !ok || p != DefaultPrices["gpt-4o-mini"] {
		t.Fatalf("a default the file leaves alone changed: %+v", p)
	}
	if _, ok := Default().PriceTable().For("qwen2.5:7b"); ok {
		t.Fatal("a local model has a price; it must show as unknown")
	}
}

func TestPrices_Validate(t *testing.T) {
	cfg, err := Load(writeConfig(t, `version = 1
[prices."m"]
input = -1
output = 1
currency = "dollars"
`))
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.Validate()
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("Validate = %v, want ErrInvalid", err)
	}
	for _, want := range []string{`[prices."m"] input is -1`, `currency is "dollars"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

func TestPrices_UnknownKeyRefused(t *testing.T) {
	if _, err := Load(writeConfig(t, "version = 1\n[prices.\"m\"]\ninptu = 1\ncurrency = \"USD\"\n")); err == nil {
		t.Fatal("a misspelt price key loaded")
	}
}

// TestPrices_ListedInDocs keeps the table of default prices in
// docs/config.md generated; -write rewrites it with the reference.
func TestPrices_ListedInDocs(t *testing.T) {
	const begin, end = "<!-- prices:begin -->\n", "<!-- prices:end -->"
	path := "../../docs/config.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("docs/config.md lacks the %q … %q markers", begin, end)
	}
	want := "\n" + PricesMarkdown() + "\n"
	if page[i+len(begin):j] == want {
		return
	}
	if !*rewriteReference {
		t.Fatal("the default prices in docs/config.md are out of date: run go test ./backend/config -run Prices -write")
	}
	page = page[:i+len(begin)] + want + page[j:]
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
}
