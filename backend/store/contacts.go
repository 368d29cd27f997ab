package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// botContactsBucket caches who a chat platform's user ids and departments
// are (name, departments, when looked up), as the platform's adapter
// encodes them, so a restart does not ask the contacts API again for
// everyone and a lookup that fails can fall back on the last answer.
var botContactsBucket = []byte("bot.contacts.v1")

func init() {
	buckets = append(buckets, botContactsBucket)
}

// CachedContact returns the cached entry of key, or nil when there is none.
func (s *Store) CachedContact(key string) ([]byte, error) {
	var data []byte
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(botContactsBucket).Get([]byte(key)); v != nil {
			data = append([]byte(nil), v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read contact %s: %w", key, err)
	}
	return data, nil
}

// CacheContact replaces the cached entry of key.
func (s *Store) CacheContact(key string, data []byte) error {
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(botContactsBucket).Put([]byte(key), append([]byte(nil), data...))
	})
	if err != nil {
		return fmt.Errorf("cache contact %s: %w", key, err)
	}
	return nil
}
