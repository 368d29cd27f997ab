package wecomtest

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// Contact API error codes, as the server answers them.
const (
	CodeNoPrivilege  = 60011 // the application may not read this part of the contacts
	CodeAPIForbidden = 48002 // the application may not call this API at all
	CodeUserNotFound = 60111
	CodeInvalidDept  = 60123
	CodeIPNotAllowed = 60020 // the caller's IP is not among the application's trusted IPs
)

type contactUser struct {
	name  string
	depts []int
}

type contactDept struct {
	name   string
	parent int
}

// AddDepartment adds department id, named name, under parent (0: none,
// the company's root).
func (s *Server) AddDepartment(id int, name string, parent int) {
	s.mu.Lock()
	s.depts[id] = contactDept{name, parent}
	s.mu.Unlock()
}

// AddUser adds user id, named name, to departments (the first is their
// main department).
func (s *Server) AddUser(id, name string, departments ...int) {
	s.mu.Lock()
	s.users[id] = contactUser{name, departments}
	s.mu.Unlock()
}

// DenyContacts answers every contacts call with code (CodeNoPrivilege,
// CodeAPIForbidden), as for an application without the permission; 0
// answers them again.
func (s *Server) DenyContacts(code int) {
	s.mu.Lock()
	s.denyContacts = code
	s.mu.Unlock()
}

// WaitStats blocks until cond holds for the counts, or ctx is done. It
// wakes on each call the server answers, never on a timer.
func (s *Server) WaitStats(ctx context.Context, cond func(Stats) bool) error {
	if err := s.changes.Wait(ctx, &s.mu, func() bool { return cond(s.stats) }); err != nil {
		return fmt.Errorf("wecomtest: waiting for calls: %w", err)
	}
	return nil
}

// userGet answers /cgi-bin/user/get as WeCom does, with the fields of a
// real answer beside those the bot reads.
func (s *Server) userGet(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.changes.Notify()
	if code := s.authorize(r); code != 0 {
		s.answer(w, code, nil)
		return
	}
	s.stats.UserGet++
	if code := s.contactsRefusal(); code != 0 {
		s.answer(w, code, nil)
		return
	}
	id := r.URL.Query().Get("userid")
	u, ok := s.users[id]
	if !ok {
		s.answer(w, CodeUserNotFound, nil)
		return
	}
	order := make([]int, len(u.depts))
	leader := make([]int, len(u.depts))
	main := 0
	if len(u.depts) > 0 {
		main = u.depts[0]
	}
	s.answer(w, 0, map[string]any{
		"userid": id, "name": u.name, "department": u.depts, "order": order,
		"position": "", "gender": "0", "is_leader_in_dept": leader, "direct_leader": []string{},
		"avatar": "", "thumb_avatar": "", "alias": "", "status": 1, "main_department": main,
		"open_userid": "wo" + id, "extattr": map[string]any{"attrs": []any{}},
	})
}

// departmentGet answers /cgi-bin/department/get as WeCom does.
func (s *Server) departmentGet(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.changes.Notify()
	if code := s.authorize(r); code != 0 {
		s.answer(w, code, nil)
		return
	}
	s.stats.DeptGet++
	if code := s.contactsRefusal(); code != 0 {
		s.answer(w, code, nil)
		return
	}
	id, _ := strconv.Atoi(r.URL.Query().Get("id"))
	d, ok := s.depts[id]
	if !ok {
		s.answer(w, CodeInvalidDept, nil)
		return
	}
	s.answer(w, 0, map[string]any{"department": map[string]any{
		"id": id, "name": d.name, "name_en": "", "department_leader": []string{},
		"parentid": d.parent, "order": 100000000 - id,
	}})
}

// FailContacts answers the next contacts calls with these error codes, one
// each, before answering again.
func (s *Server) FailContacts(codes ...int) {
	s.mu.Lock()
	s.contactFaults = append(s.contactFaults, codes...)
	s.mu.Unlock()
}

// contactsRefusal is the errcode the next contacts call gets, or 0; call it
// with s.mu held.
func (s *Server) contactsRefusal() int {
	if len(s.contactFaults) > 0 {
		code := s.contactFaults[0]
		s.contactFaults = s.contactFaults[1:]
		return code
	}
	return s.denyContacts
}
