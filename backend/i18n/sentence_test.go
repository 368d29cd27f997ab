package i18n

import "testing"

func TestSentenceAndClause(t *testing.T) {
	for _, c := range []struct {
		in, sentence, clause string
	}{
		{"Not now.", "Not now.", "Not now"},
		{"不行。", "不行。", "不行"},
		{"No!", "No!", "No!"},
		{"Why?", "Why?", "Why?"},
		{"为什么？", "为什么？", "为什么？"},
		{"see the notes (the second file)", "see the notes (the second file).", "see the notes (the second file)"},
		{"it failed (HTTP 400: bad request).", "it failed (HTTP 400: bad request).", "it failed (HTTP 400: bad request)"},
		{"wait...", "wait...", "wait..."},
		{"not now", "not now.", "not now"},
		{"  not now.  ", "not now.", "not now"},
		{"", "", ""},
	} {
		if got := Sentence(c.in); got != c.sentence {
			t.Errorf("Sentence(%q) = %q, want %q", c.in, got, c.sentence)
		}
		if got := Clause(c.in); got != c.clause {
			t.Errorf("Clause(%q) = %q, want %q", c.in, got, c.clause)
		}
	}
	if got := Then("Not now.", "Do not retry it."); got != "Not now. Do not retry it." {
		t.Errorf("Then = %q", got)
	}
	if got := Then("", "Do not retry it."); got != "Do not retry it." {
		t.Errorf("Then of nothing = %q", got)
	}
}
