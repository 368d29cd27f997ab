package store

import "errors"

var (
	// ErrLocked is returned by Open when another process holds the database.
	ErrLocked = errors.New("database locked by another process")

	// ErrDamaged is returned when the database file is damaged (cut short,
	// or a page overwritten). The file is left as it is, for hermes doctor
	// to salvage.
	ErrDamaged = errors.New("database damaged")

	// ErrNoCheckpoint is returned by LoadCheckpoint for a run that has none.
	ErrNoCheckpoint = errors.New("no checkpoint")

	// ErrCheckpointGap is returned for a checkpoint whose turns do not
	// follow the ones stored, as after an earlier save of the run failed;
	// the run resumes from its last checkpoint that was saved.
	ErrCheckpointGap = errors.New("the checkpoint's turns do not follow the stored ones")
)
