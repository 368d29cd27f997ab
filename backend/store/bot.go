package store

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The bot's buckets (backend/bot). Keys are "platform/id" strings chosen by
// the bot; values are opaque to this package except where noted.
var (
	// botSeenBucket maps a message key to when it was first seen (unix
	// nanoseconds, big-endian), so a callback resent by the platform never
	// starts a second run, even across a restart.
	botSeenBucket = []byte("bot.seen.v1")
	// botUserIDsBucket caches the platform's user-id conversions, so a
	// restart does not ask the platform again for every user.
	botUserIDsBucket = []byte("bot.userids.v1")
	// botSessionsBucket holds one bot session per user, as the bot encodes it.
	botSessionsBucket = []byte("bot.sessions.v1")
)

func init() {
	buckets = append(buckets, botSeenBucket, botUserIDsBucket, botSessionsBucket)
}

// SeenMessages returns every recorded message key with when it was first
// seen, for the bot to check resends against in memory.
func (s *Store) SeenMessages() (map[string]time.Time, error) {
	seen := map[string]time.Time{}
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(botSeenBucket).ForEach(func(k, v []byte) error {
			var at time.Time
			if len(v) == 8 {
				at = time.Unix(0, int64(binary.BigEndian.Uint64(v)))
			}
			seen[string(k)] = at
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read seen messages: %w", err)
	}
	return seen, nil
}

// RecordSeen records that the message keys arrived at at, in one
// transaction; a key recorded before keeps its first time.
func (s *Store) RecordSeen(at time.Time, keys ...string) error {
	stamp := binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(botSeenBucket)
		for _, k := range keys {
			if b.Get([]byte(k)) != nil {
				continue
			}
			if err := b.Put([]byte(k), stamp); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record %d seen messages: %w", len(keys), err)
	}
	return nil
}

// ForgetSeen removes the message keys first seen before cutoff and returns
// how many it removed; a platform resends a message within minutes, so the
// bot keeps them about a day.
func (s *Store) ForgetSeen(cutoff time.Time) (int, error) {
	isOld := func(v []byte) bool { return len(v) != 8 || int64(binary.BigEndian.Uint64(v)) < cutoff.UnixNano() }
	// Most prunes (the one in the bot's start among them) find nothing to
	// forget: a read says so without a synced commit.
	anyOld := false
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(botSeenBucket).Cursor()
		for k, v := c.First(); k != nil && !anyOld; k, v = c.Next() {
			anyOld = isOld(v)
		}
		return nil
	})
	if err != nil || !anyOld {
		if err != nil {
			err = fmt.Errorf("forget seen messages: %w", err)
		}
		return 0, err
	}
	removed := 0
	err = s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(botSeenBucket)
		var old [][]byte
		err := b.ForEach(func(k, v []byte) error {
			if isOld(v) {
				old = append(old, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range old {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		removed = len(old)
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("forget seen messages: %w", err)
	}
	return removed, nil
}

// CachedUserID returns the cached conversion of key, if there is one.
func (s *Store) CachedUserID(key string) (userID string, ok bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(botUserIDsBucket).Get([]byte(key)); v != nil {
			userID, ok = string(v), true
		}
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("read user id %s: %w", key, err)
	}
	return userID, ok, nil
}

// CacheUserID stores the conversion of key.
func (s *Store) CacheUserID(key, userID string) error {
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(botUserIDsBucket).Put([]byte(key), []byte(userID))
	})
	if err != nil {
		return fmt.Errorf("cache user id %s: %w", key, err)
	}
	return nil
}

// BotSession returns the stored session of key, or nil when there is none.
func (s *Store) BotSession(key string) ([]byte, error) {
	var data []byte
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(botSessionsBucket).Get([]byte(key)); v != nil {
			data = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read bot session %s: %w", key, err)
	}
	return data, nil
}

// SaveBotSession replaces the stored session of key.
func (s *Store) SaveBotSession(key string, data []byte) error {
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(botSessionsBucket).Put([]byte(key), append([]byte(nil), data...))
	})
	if err != nil {
		return fmt.Errorf("save bot session %s: %w", key, err)
	}
	return nil
}
