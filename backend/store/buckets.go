package store

// Top-level buckets. Each name carries the version of its layout: a feature
// that changes a layout writes a new bucket ("checkpoints.v2") and migrates
// from the old one, so an older Hermes never misreads a newer layout. Later
// features (bot sessions, id caches) add their own here; a sibling package
// adds its own with Register.
var (
	// checkpointsBucket holds one bucket per run id:
	//   state       the loop's latest state, replaced at every save
	//   turns/      the conversation, append-only, keyed by big-endian uint64
	checkpointsBucket = []byte("checkpoints.v1")
)

var buckets = [][]byte{checkpointsBucket}

var (
	stateKey = []byte("state")
	turnsKey = []byte("turns")
)
