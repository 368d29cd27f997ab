package store

import (
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"
)

// labelsBucket maps a run's id to the Label a person gave it. Made on the
// first label, so older stores need no migration.
var labelsBucket = []byte("labels.v1")

// Labels a person gives a run.
const (
	LabelGood = "good"
	LabelBad  = "bad"
)

// Label is a person's verdict on a run: good or bad, with a note.
type Label struct {
	Label   string    `json:"label"`
	Note    string    `json:"note,omitempty"`
	Updated time.Time `json:"updated"`
}

// SetLabel labels run id; an empty label takes the run's label away.
func (s *Store) SetLabel(id string, l Label) error {
	return s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(labelsBucket)
		if err != nil {
			return err
		}
		if l.Label == "" {
			return b.Delete([]byte(id))
		}
		v, err := json.Marshal(l)
		if err != nil {
			return err
		}
		return b.Put([]byte(id), v)
	})
}

// Labels returns every run's label, by run id.
func (s *Store) Labels() (map[string]Label, error) {
	out := map[string]Label{}
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(labelsBucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var l Label
			if json.Unmarshal(v, &l) == nil {
				out[string(k)] = l
			}
			return nil
		})
	})
	return out, err
}
