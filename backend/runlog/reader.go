package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// ReadFile returns the events of the log at path, the same values that were
// written. A torn last line (a crash mid-write) is ignored; a corrupt line
// elsewhere is an ErrCorruptLog error naming its line number.
func ReadFile(path string) ([]event.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open log %s: %w", path, err)
	}
	defer f.Close()
	var events []event.Event
	err = Read(f, func(e event.Event) error {
		events = append(events, e)
		return nil
	})
	if err != nil {
		return events, fmt.Errorf("read log %s: %w", path, err)
	}
	return events, nil
}

// Read calls fn with each event of the log in r, in order, and stops at the
// first error fn returns. Blank lines are skipped.
func Read(r io.Reader, fn func(event.Event) error) error {
	return scanLines(r, func(line []byte, n int, last bool) error {
		var e event.Event
		if err := json.Unmarshal(line, &e); err != nil {
			if last {
				return nil
			}
			return corruptLine(n, err)
		}
		return fn(e)
	})
}

func corruptLine(n int, err error) error {
	return i18n.Wrap(ErrCorruptLog, "runlog.corrupt_line", n, err.Error())
}

// scanLines calls fn with each non-blank line of r and its 1-based number;
// last is set for a final line with no newline, which may be torn. Lines may
// be of any length (tool outputs can be long), so no bufio.Scanner limit
// applies. The slice passed to fn is only valid during the call.
func scanLines(r io.Reader, fn func(line []byte, n int, last bool) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("line %d: %w", n, err)
		}
		last := errors.Is(err, io.EOF)
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line, n, last); ferr != nil {
				return ferr
			}
		}
		if last {
			return nil
		}
	}
}
