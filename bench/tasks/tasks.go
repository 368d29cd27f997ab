package tasks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// All is the suite, in the order the table lists it.
func All() []Task {
	return []Task{
		wanderSummary(), repeatRead(), driftTodo(), replanName(), orderID(), testsClaim(),
		stopsHalfway(), countLogs(), driftWrite(), journalDate(), repeatWrite(), numbersAsNumbers(), plainQuestion(),
	}
}

// fileIs checks a workspace file's content.
func fileIs(ws, name, want string) error {
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(name)))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if string(b) != want {
		return fmt.Errorf("%s holds %q, want %q", name, b, want)
	}
	return nil
}

// fileHas checks that a workspace file holds every one of parts.
func fileHas(ws, name string, parts ...string) error {
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(name)))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	for _, p := range parts {
		if !strings.Contains(string(b), p) {
			return fmt.Errorf("%s lacks %q: %q", name, p, b)
		}
	}
	return nil
}

func pass(reason string) Verdict { return Verdict{Passed: true, Reason: reason} }
func fail(reason string) Verdict { return Verdict{Reason: reason} }
