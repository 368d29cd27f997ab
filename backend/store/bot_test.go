package store

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestSeen_RecordedAndKeptFirstTime(t *testing.T) {
	s := openTemp(t)
	base := time.Unix(1_700_000_000, 0)
	if seen, err := s.SeenMessages(); err != nil || len(seen) != 0 {
		t.Fatalf("before recording: %v %v", seen, err)
	}
	if err := s.RecordSeen(base, "wecom/m1", "wecom/m2"); err != nil {
		t.Fatal(err)
	}
	// Recording again later keeps the first time, so it expires on time.
	if err := s.RecordSeen(base.Add(48*time.Hour), "wecom/m1"); err != nil {
		t.Fatal(err)
	}
	seen, err := s.SeenMessages()
	if err != nil || len(seen) != 2 || !seen["wecom/m1"].Equal(base) || !seen["wecom/m2"].Equal(base) {
		t.Fatalf("after recording: %v %v", seen, err)
	}
	if n, err := s.ForgetSeen(base.Add(time.Hour)); err != nil || n != 2 {
		t.Fatalf("ForgetSeen removed %d (%v), want both: the later record must not renew m1", n, err)
	}
}

func TestForgetSeen_RemovesOnlyOld(t *testing.T) {
	s := openTemp(t)
	base := time.Unix(1_700_000_000, 0)
	for i, key := range []string{"a", "b", "c", "d"} {
		if err := s.RecordSeen(base.Add(time.Duration(i)*time.Hour), key); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := s.ForgetSeen(base.Add(2 * time.Hour))
	if err != nil || removed != 2 {
		t.Fatalf("ForgetSeen removed %d (%v), want 2", removed, err)
	}
	seen, _ := s.SeenMessages()
	for key, wantSeen := range map[string]bool{"a": false, "b": false, "c": true, "d": true} {
		if _, ok := seen[key]; ok != wantSeen {
			t.Errorf("after forgetting, %s seen = %v, want %v", key, ok, wantSeen)
		}
	}
}

// A prune that finds nothing old commits nothing: the bot prunes in its
// start, and a commit is a write and an fsync of hermes.db.
func TestForgetSeen_NothingOldCommitsNothing(t *testing.T) {
	s := openTemp(t)
	base := time.Unix(1_700_000_000, 0)
	if err := s.RecordSeen(base, "a"); err != nil {
		t.Fatal(err)
	}
	txid := func() (id int) {
		_ = s.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
		return id
	}
	before := txid()
	if removed, err := s.ForgetSeen(base.Add(-time.Hour)); err != nil || removed != 0 {
		t.Fatalf("ForgetSeen removed %d (%v), want none", removed, err)
	}
	if after := txid(); after != before {
		t.Errorf("transaction %d after the prune, want %d: a prune of nothing committed", after, before)
	}
	if seen, _ := s.SeenMessages(); len(seen) != 1 {
		t.Errorf("seen %v after a prune of nothing, want a", seen)
	}
}

func TestBotCaches_SurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CacheUserID("wecom/open-1", "zhangsan"); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveBotSession("wecom/zhangsan", []byte(`{"v":1}`)); err != nil {
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
	if id, ok, err := s.CachedUserID("wecom/open-1"); err != nil || !ok || id != "zhangsan" {
		t.Fatalf("user id after reopen: %q %v %v", id, ok, err)
	}
	if _, ok, _ := s.CachedUserID("wecom/open-2"); ok {
		t.Fatal("an id never cached was found")
	}
	if data, err := s.BotSession("wecom/zhangsan"); err != nil || string(data) != `{"v":1}` {
		t.Fatalf("session after reopen: %s %v", data, err)
	}
	if data, err := s.BotSession("wecom/lisi"); err != nil || data != nil {
		t.Fatalf("missing session: %s %v, want nil", data, err)
	}
}
