package memory

import "errors"

var (
	// ErrLocked is returned by Open when another process holds the database.
	ErrLocked = errors.New("database locked by another process")

	// ErrNoCheckpoint is returned by LoadCheckpoint for a run that has none.
	ErrNoCheckpoint = errors.New("no checkpoint")
)

// ErrNoMemory is returned for a long-term memory id that does not exist.
var ErrNoMemory = errors.New("no such memory")
