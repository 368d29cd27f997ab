package desktoplink

import (
	"path/filepath"
	"testing"
)

func TestRun_RoundTrip(t *testing.T) {
	home := filepath.Join(t.TempDir(), `my "notes" & <runs> 100%`)
	link := Run(home, "20261205-090000-11c0de")
	for _, c := range `&"<> ` {
		for _, in := range link {
			if in == c {
				t.Fatalf("%q holds %q, which the toast's XML or a command line would read", link, c)
			}
		}
	}
	gotHome, id, ok := Parse(link)
	if !ok || gotHome != home || id != "20261205-090000-11c0de" {
		t.Fatalf("Parse(%q) = %q %q %v", link, gotHome, id, ok)
	}
}

func TestParse_OnlyARunOfAHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	for _, link := range []string{
		"",
		"https://run/abc?home=" + home,
		"hermes://run/?home=" + home,
		"hermes://run/..%2F..%2Fetc?home=" + home,
		"hermes://run/a/b?home=" + home,
		"hermes://run/-rf?home=" + home,
		"hermes://start/abc?home=" + home,
		"hermes://run/abc",
		"hermes://run/abc?home=relative/home",
		"hermes://run/abc?home=" + home + "/../other",
		"hermes://run/abc?home=" + home + "&task=rm",
		"hermes://user@run/abc?home=" + home,
		"hermes://run/abc?home=" + home + "#x",
		"--home",
	} {
		if h, id, ok := Parse(link); ok {
			t.Errorf("Parse(%q) = %q %q, want refused", link, h, id)
		}
	}
}
