package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The run summaries that run lists show, kept here so a list reads only the
// page it shows instead of every log. The store keeps them as bytes; runlog
// says what they hold.
var (
	// runsBucket maps the start time (big-endian unix nanoseconds) and the
	// run id to the run's summary, so newest first is a cursor walk.
	runsBucket = []byte("runs.v1")
	// runIDsBucket maps a run id to its key in runsBucket: a run is found
	// by its id, or by a prefix of it, with one seek.
	runIDsBucket = []byte("runs.ids.v1")
	// runDaysBucket maps a logs/ day folder to the folder's modification
	// time when its logs were last indexed: a folder that changed since
	// (a log added or removed by a process that kept no summary) is indexed
	// again.
	runDaysBucket = []byte("runs.days.v1")
)

func init() {
	buckets = append(buckets, runsBucket, runIDsBucket, runDaysBucket)
}

// RunSummary is one run's entry: its id, start time and summary.
type RunSummary struct {
	RunID   string
	Started time.Time
	Data    []byte
}

func runKey(runID string, started time.Time) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(started.UnixNano())), runID...)
}

func putRun(tx *bolt.Tx, r RunSummary) error {
	ids := tx.Bucket(runIDsBucket)
	key := runKey(r.RunID, r.Started)
	if old := ids.Get([]byte(r.RunID)); old != nil && !bytes.Equal(old, key) {
		if err := tx.Bucket(runsBucket).Delete(old); err != nil {
			return err
		}
	}
	if err := ids.Put([]byte(r.RunID), key); err != nil {
		return err
	}
	return tx.Bucket(runsBucket).Put(key, append([]byte(nil), r.Data...))
}

func deleteRun(tx *bolt.Tx, runID string) error {
	ids := tx.Bucket(runIDsBucket)
	if key := ids.Get([]byte(runID)); key != nil {
		if err := tx.Bucket(runsBucket).Delete(key); err != nil {
			return err
		}
	}
	return ids.Delete([]byte(runID))
}

// PutRunSummary stores a run's summary, replacing the one it had.
func (s *Store) PutRunSummary(r RunSummary) error {
	if err := s.update(func(tx *bolt.Tx) error { return putRun(tx, r) }); err != nil {
		return fmt.Errorf("save summary of run %s: %w", r.RunID, err)
	}
	return nil
}

// DeleteRunSummary removes a run's summary; none is not an error.
func (s *Store) DeleteRunSummary(runID string) error {
	if err := s.update(func(tx *bolt.Tx) error { return deleteRun(tx, runID) }); err != nil {
		return fmt.Errorf("delete summary of run %s: %w", runID, err)
	}
	return nil
}

// RunSummaries calls fn with the summaries newest first, from the one after
// the run before ("" starts at the newest), until fn returns false. found
// is false when before names no run. Data is valid only during the call.
func (s *Store) RunSummaries(before string, fn func(runID string, data []byte) bool) (found bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(runsBucket).Cursor()
		var k, v []byte
		if before == "" {
			found = true
			k, v = c.Last()
		} else {
			key := tx.Bucket(runIDsBucket).Get([]byte(before))
			if key == nil {
				return nil
			}
			found = true
			if k, _ = c.Seek(key); k != nil {
				k, v = c.Prev()
			}
		}
		for ; k != nil; k, v = c.Prev() {
			if !fn(string(k[8:]), v) {
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("list run summaries: %w", err)
	}
	return found, nil
}

// RunSummariesByPrefix returns the summaries of the runs whose id begins
// with prefix, at most limit of them, in id order.
func (s *Store) RunSummariesByPrefix(prefix string, limit int) ([]RunSummary, error) {
	var out []RunSummary
	err := s.view(func(tx *bolt.Tx) error {
		runs := tx.Bucket(runsBucket)
		c := tx.Bucket(runIDsBucket).Cursor()
		for k, key := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)) && len(out) < limit; k, key = c.Next() {
			if v := runs.Get(key); v != nil {
				started := time.Unix(0, int64(binary.BigEndian.Uint64(key[:8])))
				out = append(out, RunSummary{RunID: string(k), Started: started, Data: append([]byte(nil), v...)})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find runs %s: %w", prefix, err)
	}
	return out, nil
}

// HasRunSummary reports whether the run has a summary.
func (s *Store) HasRunSummary(runID string) (bool, error) {
	var ok bool
	err := s.view(func(tx *bolt.Tx) error {
		ok = tx.Bucket(runIDsBucket).Get([]byte(runID)) != nil
		return nil
	})
	return ok, err
}

// RunDays returns each indexed day folder's modification time (unix
// nanoseconds) as it was when indexed.
func (s *Store) RunDays() (map[string]int64, error) {
	days := map[string]int64{}
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(runDaysBucket).ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				days[string(k)] = int64(binary.BigEndian.Uint64(v))
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read run index: %w", err)
	}
	return days, nil
}

// IndexRunDay records, in one transaction, what indexing a day folder found:
// the summaries to put, the runs whose logs are gone, and the folder's
// modification time (mtime, unix nanoseconds; 0 forgets the day).
func (s *Store) IndexRunDay(day string, mtime int64, put []RunSummary, gone []string) error {
	err := s.update(func(tx *bolt.Tx) error {
		for _, r := range put {
			if err := putRun(tx, r); err != nil {
				return err
			}
		}
		for _, id := range gone {
			if err := deleteRun(tx, id); err != nil {
				return err
			}
		}
		if mtime == 0 {
			return tx.Bucket(runDaysBucket).Delete([]byte(day))
		}
		return tx.Bucket(runDaysBucket).Put([]byte(day), binary.BigEndian.AppendUint64(nil, uint64(mtime)))
	})
	if err != nil {
		return fmt.Errorf("index runs of %s: %w", day, err)
	}
	return nil
}

// RunIDsBetween returns the ids of the runs that started in [from, to).
func (s *Store) RunIDsBetween(from, to time.Time) ([]string, error) {
	var ids []string
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(runsBucket).Cursor()
		end := binary.BigEndian.AppendUint64(nil, uint64(to.UnixNano()))
		for k, _ := c.Seek(binary.BigEndian.AppendUint64(nil, uint64(from.UnixNano()))); k != nil && bytes.Compare(k[:8], end) < 0; k, _ = c.Next() {
			ids = append(ids, string(k[8:]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return ids, nil
}
