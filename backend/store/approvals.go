package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// approvalsBucket holds the "always allow" answers a person gave, keyed by a
// big-endian id. They live here rather than in hermes.toml because the
// config is the user's own file, which Hermes never rewrites. The bucket is
// made on the first save, so older stores need no migration.
var approvalsBucket = []byte("approvals.v1")

// ApprovalRule is a remembered "always allow": the tool, and a pattern its
// arguments must match ("" = any arguments).
type ApprovalRule struct {
	ID      uint64    `json:"id"`
	Tool    string    `json:"tool"`
	Pattern string    `json:"pattern,omitempty"`
	Created time.Time `json:"created"`
}

// AddApprovalRule remembers that tool may run without asking when its
// arguments match pattern. An identical rule is not stored twice; the one
// already there is returned.
func (s *Store) AddApprovalRule(tool, pattern string, now time.Time) (ApprovalRule, error) {
	var rule ApprovalRule
	err := s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(approvalsBucket)
		if err != nil {
			return err
		}
		found := false
		err = b.ForEach(func(_, v []byte) error {
			var r ApprovalRule
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			if r.Tool == tool && r.Pattern == pattern {
				rule, found = r, true
			}
			return nil
		})
		if err != nil || found {
			return err
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		rule = ApprovalRule{ID: id, Tool: tool, Pattern: pattern, Created: now.UTC()}
		v, err := json.Marshal(rule)
		if err != nil {
			return err
		}
		return b.Put(binary.BigEndian.AppendUint64(nil, id), v)
	})
	if err != nil {
		return ApprovalRule{}, fmt.Errorf("save approval rule for %s: %w", tool, err)
	}
	return rule, nil
}

// ApprovalRules returns the remembered rules, oldest first.
func (s *Store) ApprovalRules() ([]ApprovalRule, error) {
	var rules []ApprovalRule
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(approvalsBucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			var r ApprovalRule
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			rules = append(rules, r)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read approval rules: %w", err)
	}
	return rules, nil
}

// RevokeApprovalRule forgets rule id. It reports whether there was one.
func (s *Store) RevokeApprovalRule(id uint64) (bool, error) {
	found := false
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(approvalsBucket)
		if b == nil {
			return nil
		}
		key := binary.BigEndian.AppendUint64(nil, id)
		found = b.Get(key) != nil
		return b.Delete(key)
	})
	if err != nil {
		return false, fmt.Errorf("revoke approval rule %d: %w", id, err)
	}
	return found, nil
}
