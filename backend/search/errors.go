package search

import "errors"

// ErrNoIndex is returned by Open when the directory holds no saved index.
var ErrNoIndex = errors.New("no saved index")

// ErrCorrupt is returned by Open when the saved index is damaged or was
// written by an incompatible version; rebuild it from the documents.
var ErrCorrupt = errors.New("saved index is corrupt")
