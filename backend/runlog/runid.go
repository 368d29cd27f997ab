package runlog

import (
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strings"
	"time"
)

// NewRunID returns an id that sorts by start time and is unique:
// "20261130-013501-" followed by 6 random hex characters.
func NewRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return now.UTC().Format("20060102-150405-") + hex.EncodeToString(b[:])
}

// LogPath is where the log of a run started at started lives:
// logs/<UTC date>/run_<id>.jsonl under home.
func LogPath(home, runID string, started time.Time) string {
	return filepath.Join(home, "logs", started.UTC().Format(time.DateOnly), "run_"+runID+".jsonl")
}

// IDFromPath is the run id of the log at path, as LogPath names it.
func IDFromPath(path string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "run_"), ".jsonl")
}

// safeName reports whether s can be used as one path element as it is.
func safeName(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !safeByte(c) {
			return false
		}
	}
	return true
}

func safeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}
