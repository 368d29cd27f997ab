package cli_test

import (
	"testing"

	"hermes/backend/i18n"
)

// Every package's messages are made only when one is looked up and not
// found, so a key registered twice would panic only in a process that came
// to make both: this looks up a key nobody registers, which makes them all,
// in the test binary that links every package a hermes command does.
func TestMessages_NoKeyRegisteredTwice(t *testing.T) {
	if got := i18n.T("test.no_such_message"); got != "test.no_such_message" {
		t.Fatalf("T = %q", got)
	}
}
