package store

import (
	"path/filepath"
	"testing"
)

func TestContacts_CachedAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.CachedContact("ww1/user/zhangsan"); err != nil || data != nil {
		t.Fatalf("before caching: %q %v", data, err)
	}
	if err := s.CacheContact("ww1/user/zhangsan", []byte(`{"name":"张三"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if data, err := s.CachedContact("ww1/user/zhangsan"); err != nil || string(data) != `{"name":"张三"}` {
		t.Fatalf("after reopening: %q %v", data, err)
	}
}
