package wecom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"hermes/backend/chatapi"
)

// ContactsMaxAge is how long a looked-up person or department is used as
// it is; an older entry is still used while it is looked up again.
const ContactsMaxAge = 24 * time.Hour

// Contact API error codes: the application may not read the contacts (it
// lacks the permission, or the user or department is outside its visible
// range), or the user or department does not exist.
const (
	codeNoPrivilege     = 60011
	codeAPIForbidden    = 48002
	codeUserNotFound    = 60111
	codeDeptNotFound    = 60003
	codeInvalidDeptID   = 60123
	maxDepartmentLevels = 32 // a guard against a cycle in what WeCom answers
)

// contactsRefused reports an answer that will not change by asking again
// soon: it is cached like an answer, for a day.
func contactsRefused(code int) bool {
	switch code {
	case codeNoPrivilege, codeAPIForbidden, codeUserNotFound, codeDeptNotFound, codeInvalidDeptID:
		return true
	}
	return false
}

// ContactCache keeps looked-up people and departments across restarts;
// *store.Store is one. An API whose Cache is also a ContactCache keeps
// them there, else in memory.
type ContactCache interface {
	CachedContact(key string) ([]byte, error)
	CacheContact(key string, data []byte) error
}

// Department is a department of the company's contacts.
type Department struct {
	ID       int    `json:"id"`
	Name     string `json:"name,omitempty"` // "" when it could not be read
	ParentID int    `json:"parent_id,omitempty"`
}

// Person is who a user id is, as the contacts API says.
type Person struct {
	UserID string `json:"user_id"`
	Name   string `json:"name,omitempty"`
	// Departments are the user's own, the main one first; Within are those
	// and every department above them.
	Departments []Department `json:"departments,omitempty"`
	Within      []Department `json:"within,omitempty"`
	// Unknown is set when the contacts could not say (no permission, no
	// such user): the person is known by their id alone.
	Unknown bool      `json:"unknown,omitempty"`
	Fetched time.Time `json:"fetched"`
}

// DepartmentNames are the names of the user's own departments that could be
// read.
func (p Person) DepartmentNames() []string {
	var out []string
	for _, d := range p.Departments {
		if d.Name != "" {
			out = append(out, d.Name)
		}
	}
	return out
}

// InAny reports whether the user is in one of the departments refs names
// (by id or by name), directly or through a sub-department.
func (p Person) InAny(refs []string) bool {
	for _, d := range p.Within {
		id := strconv.Itoa(d.ID)
		if slices.ContainsFunc(refs, func(r string) bool { return r == id || (d.Name != "" && r == d.Name) }) {
			return true
		}
	}
	return false
}

type userResult struct {
	apiStatus
	UserID         string `json:"userid"`
	Name           string `json:"name"`
	Department     []int  `json:"department"`
	MainDepartment int    `json:"main_department"`
}

func (r *userResult) status() apiStatus { return r.apiStatus }

type departmentResult struct {
	apiStatus
	Department struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		ParentID int    `json:"parentid"`
	} `json:"department"`
}

func (r *departmentResult) status() apiStatus { return r.apiStatus }

// department is a cached department with when it was looked up.
type department struct {
	Department
	Fetched time.Time `json:"fetched"`
}

// contacts is the API's state for the contacts: lookups in flight, the
// cache when the API's Cache is not a ContactCache, and whether a refusal
// for lack of permission was reported yet.
type contacts struct {
	people  chatapi.Flight[Person]
	depts   chatapi.Flight[department]
	denied  sync.Once
	memMu   sync.Mutex
	mem     map[string][]byte
	pending sync.WaitGroup // refreshes under way, for Wait
}

// Person looks up who a callback's sender is: their name and departments.
// An entry cached less than ContactsMaxAge ago is used as it is; an older
// one is used too while a lookup runs in the background (a failed one
// keeps it). Without an entry, it asks WeCom. When WeCom refuses (no
// permission, no such user) the person is known by id alone, and the
// refusal is cached like an answer, so a message never waits on it twice a
// day; the first refusal for lack of permission comes back as ErrNoContacts
// beside the person, to be logged. Any other failure comes back with the
// person known by id alone, and nothing is cached.
func (a *API) Person(ctx context.Context, callbackID string) (Person, error) {
	userID, err := a.UserID(ctx, callbackID)
	if err != nil {
		return Person{UserID: callbackID, Unknown: true}, err
	}
	key := a.o.CorpID + "/user/" + userID
	if p, ok := a.cachedPerson(key); ok {
		if a.o.Now().Sub(p.Fetched) >= ContactsMaxAge {
			a.contacts.pending.Add(1)
			go func() {
				defer a.contacts.pending.Done()
				// A refresh that fails keeps the person known, to be tried again.
				_, _ = a.lookUp(context.WithoutCancel(ctx), key, userID)
			}()
		}
		return p, nil
	}
	return a.lookUp(ctx, key, userID)
}

// WaitRefreshes waits for the background lookups under way.
func (a *API) WaitRefreshes() { a.contacts.pending.Wait() }

func (a *API) lookUp(ctx context.Context, key, userID string) (Person, error) {
	return a.contacts.people.Do(ctx, key, func(ctx context.Context) (Person, error) {
		return a.fetchPerson(ctx, key, userID)
	})
}

func (a *API) fetchPerson(ctx context.Context, key, userID string) (Person, error) {
	now := a.o.Now()
	old, hadOld := a.cachedPerson(key)
	var res userResult
	err := a.callQuery(ctx, http.MethodGet, "user/get", "/cgi-bin/user/get", url.Values{"userid": {userID}}, nil, &res)
	if err != nil {
		if !a.refused(err) {
			if hadOld {
				return old, err
			}
			return Person{UserID: userID, Unknown: true}, err
		}
		p := Person{UserID: userID, Unknown: true}
		if hadOld && !old.Unknown {
			p = old // a refusal keeps what was known
		}
		p.Fetched = now
		return p, errors.Join(a.deniedOnce(err), a.cachePut(key, p))
	}
	p := Person{UserID: userID, Name: res.Name, Fetched: now}
	ids := slices.Clone(res.Department)
	if i := slices.Index(ids, res.MainDepartment); i > 0 {
		ids = append(append([]int{res.MainDepartment}, ids[:i]...), ids[i+1:]...)
	}
	var errs []error
	seen := map[int]bool{}
	for _, id := range ids {
		d, err := a.department(ctx, id)
		errs = append(errs, err)
		p.Departments = append(p.Departments, d)
		// Every department above it, for allow_departments.
		for level := 0; level < maxDepartmentLevels && !seen[d.ID]; level++ {
			seen[d.ID] = true
			p.Within = append(p.Within, d)
			if d.ParentID == 0 || d.Name == "" {
				break
			}
			d, err = a.department(ctx, d.ParentID)
			errs = append(errs, err)
		}
	}
	var transient error
	for _, err := range errs {
		if err != nil && !errors.Is(err, ErrNoContacts) {
			transient = err
		}
	}
	if transient != nil {
		// A department that could not be read this time: not cached, so
		// the next message asks again.
		if hadOld {
			return old, transient
		}
		return p, transient
	}
	return p, errors.Join(errors.Join(errs...), a.cachePut(key, p))
}

// department returns a department, from the cache while it is fresh, else
// from WeCom; a refused one has no name and is cached as such; a failure
// falls back on the cached one, however old.
func (a *API) department(ctx context.Context, id int) (Department, error) {
	key := a.o.CorpID + "/dept/" + strconv.Itoa(id)
	var old department
	hadOld := a.cacheGet(key, &old)
	if hadOld && a.o.Now().Sub(old.Fetched) < ContactsMaxAge {
		return old.Department, nil
	}
	d, err := a.contacts.depts.Do(ctx, key, func(ctx context.Context) (department, error) {
		var res departmentResult
		err := a.callQuery(ctx, http.MethodGet, "department/get", "/cgi-bin/department/get", url.Values{"id": {strconv.Itoa(id)}}, nil, &res)
		d := department{Department: Department{ID: id}, Fetched: a.o.Now()}
		switch {
		case err == nil:
			d.Name, d.ParentID = res.Department.Name, res.Department.ParentID
		case a.refused(err):
			err = a.deniedOnce(err)
		default:
			return d, err
		}
		return d, errors.Join(err, a.cachePut(key, d))
	})
	if err != nil && !errors.Is(err, ErrNoContacts) && hadOld {
		return old.Department, err
	}
	return d.Department, err
}

func (a *API) refused(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && contactsRefused(apiErr.Code)
}

// deniedOnce is ErrNoContacts the first time WeCom refuses for lack of
// permission, and nil otherwise: the operator is told once, not at every
// message.
func (a *API) deniedOnce(err error) error {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || (apiErr.Code != codeNoPrivilege && apiErr.Code != codeAPIForbidden) {
		return nil
	}
	var first error
	a.contacts.denied.Do(func() { first = fmt.Errorf("%w (%v)", ErrNoContacts, err) })
	return first
}

func (a *API) cachedPerson(key string) (Person, bool) {
	var p Person
	ok := a.cacheGet(key, &p)
	return p, ok
}

// cacheGet decodes the entry of key into v; an unreadable entry is none.
func (a *API) cacheGet(key string, v any) bool {
	var data []byte
	if c, ok := a.o.Cache.(ContactCache); ok {
		var err error
		if data, err = c.CachedContact(key); err != nil {
			return false
		}
	} else {
		a.contacts.memMu.Lock()
		data = a.contacts.mem[key]
		a.contacts.memMu.Unlock()
	}
	return data != nil && json.Unmarshal(data, v) == nil
}

func (a *API) cachePut(key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if c, ok := a.o.Cache.(ContactCache); ok {
		return c.CacheContact(key, data)
	}
	a.contacts.memMu.Lock()
	defer a.contacts.memMu.Unlock()
	if a.contacts.mem == nil {
		a.contacts.mem = map[string][]byte{}
	}
	a.contacts.mem[key] = data
	return nil
}
