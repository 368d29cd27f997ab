// Command mkhome writes servertest's sample runs, and an older run of 300
// iterations, into a Hermes home directory and prints, as JSON, what a viewer
// should show of them (newest first). The UI's end-to-end test and the
// desktop smoke check use it.
//
//	go run ./backend/server/servertest/mkhome DIR
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"hermes/backend/server/servertest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkhome DIR")
		os.Exit(2)
	}
	now := time.Now()
	runs, err := servertest.WriteSample(os.Args[1], now)
	if err == nil {
		// Older than every sample run, so it comes last.
		var long servertest.Written
		long, err = writeLong(os.Args[1], now.Add(-200*time.Hour).UTC().Truncate(time.Second))
		runs = append(runs, long)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkhome:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(runs); err != nil {
		fmt.Fprintln(os.Stderr, "mkhome:", err)
		os.Exit(1)
	}
}
