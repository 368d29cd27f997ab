package cli

import (
	"slices"
	"testing"

	"hermes/backend/desktoplink"
)

// The window build is started on the home, or on the run a link named as
// that link, which it reads as one clicked.
func TestWindowArgs(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		w    Window
		want []string
	}{
		{Window{Home: home}, []string{"hermes", "--home", home}},
		{Window{Home: home, New: true}, []string{"hermes", "--home", home, "--new-window"}},
		{Window{Home: home, Run: "20261205-090000-11c0de"}, []string{"hermes", desktoplink.Run(home, "20261205-090000-11c0de")}},
	} {
		if got := windowArgs(c.w); !slices.Equal(got, c.want) {
			t.Errorf("windowArgs(%+v) = %q, want %q", c.w, got, c.want)
		}
	}
}
