package store

import bolt "go.etcd.io/bbolt"

// Register names buckets that a sibling package keeps in the store (long-term
// memory does, in backend/longterm), so Open creates them with the store's
// own and readers never meet a missing one. Call it from the package's init,
// before any store is opened.
func Register(names ...[]byte) { buckets = append(buckets, names...) }

// RegisterDerived is Register for buckets their package rebuilds from its
// others (an index): Verify reads them, Salvage does not copy them, since
// one that lost a page would answer wrongly; the package rebuilds them.
func RegisterDerived(names ...[]byte) {
	Register(names...)
	for _, name := range names {
		derived[string(name)] = true
	}
}

var derived = map[string]bool{}

// View runs fn in a read transaction, for a sibling package reading its own
// buckets. A page bbolt cannot read comes back as ErrDamaged, saying to run
// hermes doctor, as for the store's own buckets.
func (s *Store) View(fn func(*bolt.Tx) error) error { return s.view(fn) }

// Update runs fn in a write transaction, committed and synced when fn
// returns nil and rolled back when it returns an error. A damaged page is
// ErrDamaged, as in View. Salvage and Verify walk every bucket, registered
// ones too.
func (s *Store) Update(fn func(*bolt.Tx) error) error { return s.update(fn) }
