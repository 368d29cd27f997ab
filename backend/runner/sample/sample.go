// Package sample is the recorded run that ships inside Hermes, so that a
// newcomer with no model configured can open and replay a real run at once.
// sample.jsonl was made by running the real loop against a scripted model
// (see gen); it is never written into anyone's logs.
package sample

import (
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"sync"

	"hermes/backend/event"
	"hermes/backend/runlog"
)

//go:generate go run ./gen -o sample.jsonl
//go:generate go run ./gen -run controls -o controls.jsonl

//go:embed sample.jsonl
var recorded []byte

var decoded = sync.OnceValues(func() ([]event.Event, error) {
	var events []event.Event
	err := runlog.Read(bytes.NewReader(recorded), func(e event.Event) error {
		events = append(events, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("decode the sample run: %w", err)
	}
	return events, nil
})

// Events returns the sample run's events in seq order; the caller may keep
// and change the slice.
func Events() ([]event.Event, error) {
	events, err := decoded()
	return slices.Clone(events), err
}
