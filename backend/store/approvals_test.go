package store

import (
	"path/filepath"
	"testing"
	"time"
)

func TestApprovalRules_SurviveReopenAndRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if rules, err := s.ApprovalRules(); err != nil || len(rules) != 0 {
		t.Fatalf("fresh store: rules %v, err %v; want none", rules, err)
	}
	now := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	a, err := s.AddApprovalRule("execute_command", "git *", now)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.AddApprovalRule("execute_command", "git *", now.Add(time.Hour))
	if err != nil || again.ID != a.ID {
		t.Fatalf("identical rule stored twice: %+v then %+v (err %v)", a, again, err)
	}
	b, err := s.AddApprovalRule("write_file", "", now)
	if err != nil {
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
	rules, err := s.ApprovalRules()
	if err != nil || len(rules) != 2 || rules[0] != a || rules[1] != b {
		t.Fatalf("after reopen: %+v (err %v); want %+v and %+v", rules, err, a, b)
	}
	if found, err := s.RevokeApprovalRule(a.ID); err != nil || !found {
		t.Fatalf("revoke %d: found %v, err %v", a.ID, found, err)
	}
	if found, err := s.RevokeApprovalRule(a.ID); err != nil || found {
		t.Fatalf("revoke twice: found %v, err %v; want not found", found, err)
	}
	rules, _ = s.ApprovalRules()
	if len(rules) != 1 || rules[0].Tool != "write_file" {
		t.Fatalf("after revoke: %+v; want only write_file", rules)
	}
}
