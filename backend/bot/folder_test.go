package bot

import (
	"strings"
	"testing"
)

func TestFolderName(t *testing.T) {
	ids := []string{
		"alice", "Alice", "ALICE", "team/alice", "team_alice", "team\\alice", "team.alice", "张三", "李四",
		"", ".", "..", "con", "CON", "nul.txt", "a ", "a.", strings.Repeat("u", 300), strings.Repeat("u", 299) + "v",
	}
	seen := map[string]string{}
	for _, id := range ids {
		name := folderName(id)
		if name != folderName(id) {
			t.Fatalf("folderName(%q) is not stable", id)
		}
		if other, ok := seen[strings.ToLower(name)]; ok {
			t.Errorf("%q and %q get folders %q that a case-insensitive filesystem takes for one", other, id, name)
		}
		seen[strings.ToLower(name)] = id
		if len(name) > 45 || name == "" {
			t.Errorf("folderName(%.20q) = %q: %d bytes", id, name, len(name))
		}
		for _, c := range []byte(name) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '@') {
				t.Errorf("folderName(%q) = %q holds %q", id, name, c)
			}
		}
	}
	if name := folderName("zhang.san@corp"); !strings.HasPrefix(name, "zhang_san@corp-") {
		t.Errorf("folderName keeps no readable part of the id: %q", name)
	}
}

func TestLegacyName(t *testing.T) {
	cases := []struct {
		id, name string
		owned    bool
	}{
		{"sunqi", "sunqi", true},
		{"zhang.san@corp", "zhang.san@corp", true},
		{"team_alice", "team_alice", true},
		{"team/alice", "team_alice", false}, // may have shared team_alice
		{"..", "_..", false},
		{strings.Repeat("u", 300), strings.Repeat("u", 300), false},
	}
	for _, tc := range cases {
		if name, owned := legacyName(tc.id); name != tc.name || owned != tc.owned {
			t.Errorf("legacyName(%.20q) = %.20q %v, want %.20q %v", tc.id, name, owned, tc.name, tc.owned)
		}
	}
}

func TestSettled(t *testing.T) {
	for draft, want := range map[string]string{
		"":                           "",
		"The key is sk-te":           "The key is ",
		"The key is sk-test-1234\n":  "The key is sk-test-1234\n",
		"密钥是sk-abc":                  "密钥是",
		"好的，我来看看。":                   "好的，我来看看。",
		"done.":                      "",
		"line one\nline two, almost": "line one\nline two, ",
	} {
		if got := settled(draft); got != want {
			t.Errorf("settled(%q) = %q, want %q", draft, got, want)
		}
	}
}
