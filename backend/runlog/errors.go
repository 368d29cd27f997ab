package runlog

import "errors"

var (
	// ErrRunExists is returned by Create when the run already has a log.
	ErrRunExists = errors.New("run log already exists")

	// ErrBadRunID is returned for a run id that cannot name a file.
	ErrBadRunID = errors.New("bad run id")

	// ErrRunNotFound is returned by Find when no log holds the run.
	ErrRunNotFound = errors.New("run not found")

	// ErrCorruptLog is returned by Read when a line other than the last is
	// not a valid event.
	ErrCorruptLog = errors.New("corrupt run log")

	// ErrBadOffset is returned by Append when the offset to keep is not the
	// end of a line inside the log.
	ErrBadOffset = errors.New("offset is not a line end in the log")

	// ErrUnreadableLog is wrapped by the error List returns when it had to
	// leave some logs out.
	ErrUnreadableLog = errors.New("unreadable run log")

	// ErrBadArtifactRef is returned by ReadArtifact for a ref that is not a
	// file under artifacts/.
	ErrBadArtifactRef = errors.New("artifact ref outside artifacts/")

	// ErrArtifactNotFound is returned by ReadArtifact when the ref names no
	// artifact.
	ErrArtifactNotFound = errors.New("artifact not found")

	// ErrBadCursor is returned by Index.Page for a cursor that names no
	// run (it was deleted since the page before was read).
	ErrBadCursor = errors.New("cursor names no run")

	// ErrBadRange is returned by ReadArtifact for a negative offset.
	ErrBadRange = errors.New("bad artifact range")
)
