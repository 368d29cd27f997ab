package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SaveCheckpoint stores a run's state and appends newTurns to the turns
// stored so far, in one synced transaction: a checkpoint is saved whole or
// not at all. Only the new turns are written, so a save costs the same at
// turn 10 as at turn 10,000. The loop queues its checkpoints instead
// (QueueCheckpoint), so that it never waits for the fsync.
func (s *Store) SaveCheckpoint(runID string, state []byte, newTurns [][]byte) error {
	err := s.update(func(tx *bolt.Tx) error {
		return putCheckpoint(tx, Checkpoint{RunID: runID, State: state, From: -1, Turns: newTurns})
	})
	if err != nil {
		return fmt.Errorf("save checkpoint of run %s: %w", runID, err)
	}
	return nil
}

// putCheckpoint writes c in tx; a From below 0 appends wherever the stored
// turns end.
func putCheckpoint(tx *bolt.Tx, c Checkpoint) error {
	run, err := tx.Bucket(checkpointsBucket).CreateBucketIfNotExists([]byte(c.RunID))
	if err != nil {
		return err
	}
	turns, err := run.CreateBucketIfNotExists(turnsKey)
	if err != nil {
		return err
	}
	if c.From >= 0 && turns.Sequence() != uint64(c.From) {
		return fmt.Errorf("%w (%d stored, the checkpoint's start at %d)", ErrCheckpointGap, turns.Sequence(), c.From)
	}
	// Keys only ever grow, so pages can be filled before they split.
	turns.FillPercent = 0.95
	for _, t := range c.Turns {
		seq, err := turns.NextSequence()
		if err != nil {
			return err
		}
		if err := turns.Put(turnKey(seq-1), t); err != nil {
			return err
		}
	}
	// A present state key is what marks a checkpoint, even an empty one.
	return run.Put(stateKey, append([]byte{}, c.State...))
}

func turnKey(i uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, i)
}

// LoadCheckpoint returns a run's latest state and all its turns in order.
func (s *Store) LoadCheckpoint(runID string) (state []byte, turns [][]byte, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		run := tx.Bucket(checkpointsBucket).Bucket([]byte(runID))
		if run == nil || run.Get(stateKey) == nil {
			return ErrNoCheckpoint
		}
		// Values are only valid inside the transaction.
		state = append([]byte(nil), run.Get(stateKey)...)
		if tb := run.Bucket(turnsKey); tb != nil {
			turns = make([][]byte, 0, tb.Sequence())
			return tb.ForEach(func(_, v []byte) error {
				turns = append(turns, append([]byte(nil), v...))
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("load checkpoint of run %s: %w", runID, err)
	}
	return state, turns, nil
}

// DeleteCheckpoint removes a run's checkpoint; a run without one is no error.
func (s *Store) DeleteCheckpoint(runID string) error {
	err := s.update(func(tx *bolt.Tx) error {
		err := tx.Bucket(checkpointsBucket).DeleteBucket([]byte(runID))
		if errors.Is(err, bolterrors.ErrBucketNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("delete checkpoint of run %s: %w", runID, err)
	}
	return nil
}
