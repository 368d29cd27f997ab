package longterm

import "errors"

// ErrNoMemory is returned for a long-term memory id that does not exist.
var ErrNoMemory = errors.New("no such memory")
