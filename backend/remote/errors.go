package remote

import "errors"

// ErrOwnerGone is returned by a Client's calls when the owner does not
// answer any more.
var ErrOwnerGone = errors.New("owner does not answer")
