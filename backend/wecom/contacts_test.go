package wecom_test

import (
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"hermes/backend/chatapi"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// clock is a time the test moves on.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// company is the contacts of a small company: 研发部 (2) with 后端组 (3)
// under it, and 市场部 (4), all under the root (1).
func company(srv *wecomtest.Server) {
	srv.AddDepartment(1, "示例科技", 0)
	srv.AddDepartment(2, "研发部", 1)
	srv.AddDepartment(3, "后端组", 2)
	srv.AddDepartment(4, "市场部", 1)
	srv.AddUser("zhangsan", "张三", 3)
	srv.AddUser("lisi", "李四", 4, 2)
}

func contactsAPI(srv *wecomtest.Server, cache chatapi.UserIDCache, c *clock) *wecom.API {
	return wecom.NewAPI(wecom.APIOptions{
		Base: srv.URL, CorpID: testCorpID, Secret: testSecret, AgentID: 1000002,
		Rate: 1000, UserRate: 1000, Cache: cache, Backoff: noBackoff, Now: c.now,
	})
}

func TestPerson_NameDepartmentsAndThoseAbove(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	company(srv)
	c := &clock{t: time.Unix(1_760_000_000, 0)}
	api := contactsAPI(srv, openStore(t, filepath.Join(t.TempDir(), "hermes.db")), c)

	p, err := api.Person(t.Context(), "zhangsan")
	if err != nil || p.Name != "张三" || !slices.Equal(p.DepartmentNames(), []string{"后端组"}) || p.Unknown {
		t.Fatalf("zhangsan: %+v %v", p, err)
	}
	for _, ref := range []string{"研发部", "2", "后端组", "示例科技"} {
		if !p.InAny([]string{ref}) {
			t.Errorf("zhangsan is in 后端组 under 研发部, but not in %q: %+v", ref, p.Within)
		}
	}
	if p.InAny([]string{"市场部", "4"}) {
		t.Errorf("zhangsan is not in 市场部: %+v", p.Within)
	}
	// The main department first, each asked once.
	p, err = api.Person(t.Context(), "lisi")
	if err != nil || !slices.Equal(p.DepartmentNames(), []string{"市场部", "研发部"}) {
		t.Fatalf("lisi: %+v %v", p, err)
	}
	if st := srv.Stats(); st.UserGet != 2 || st.DeptGet != 4 {
		t.Fatalf("%d user/get and %d department/get calls; want 2 and 4 (each department once)", st.UserGet, st.DeptGet)
	}
}

func TestPerson_CachedADayThenRefreshedBehind(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	company(srv)
	c := &clock{t: time.Unix(1_760_000_000, 0)}
	path := filepath.Join(t.TempDir(), "hermes.db")
	st := openStore(t, path)
	api := contactsAPI(srv, st, c)
	if _, err := api.Person(t.Context(), "zhangsan"); err != nil {
		t.Fatal(err)
	}
	// Within the day, in this process or the next, WeCom is not asked.
	c.add(23 * time.Hour)
	api = contactsAPI(srv, st, c)
	if p, err := api.Person(t.Context(), "zhangsan"); err != nil || p.Name != "张三" {
		t.Fatalf("cached: %+v %v", p, err)
	}
	if n := srv.Stats().UserGet; n != 1 {
		t.Fatalf("%d user/get calls within a day, want 1", n)
	}

	// A day on, the old entry answers at once while it is looked up again.
	srv.AddUser("zhangsan", "张三丰", 3)
	c.add(2 * time.Hour)
	if p, err := api.Person(t.Context(), "zhangsan"); err != nil || p.Name != "张三" {
		t.Fatalf("stale: %+v %v, want the old entry while it is refreshed", p, err)
	}
	api.WaitRefreshes()
	if p, _ := api.Person(t.Context(), "zhangsan"); p.Name != "张三丰" {
		t.Fatalf("after the refresh: %+v", p)
	}
	if n := srv.Stats().UserGet; n != 2 {
		t.Fatalf("%d user/get calls, want 2", n)
	}

	// A refresh that fails keeps the old entry.
	c.add(25 * time.Hour)
	srv.FailContacts(wecomtest.CodeIPNotAllowed)
	if p, _ := api.Person(t.Context(), "zhangsan"); p.Name != "张三丰" {
		t.Fatalf("stale during a failing refresh: %+v", p)
	}
	api.WaitRefreshes()
	if p, _ := api.Person(t.Context(), "zhangsan"); p.Name != "张三丰" || p.Unknown {
		t.Fatalf("after a failed refresh: %+v, want the old entry", p)
	}
	api.WaitRefreshes()
}

func TestPerson_NoPermission(t *testing.T) {
	for _, code := range []int{wecomtest.CodeNoPrivilege, wecomtest.CodeAPIForbidden} {
		srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
		company(srv)
		srv.DenyContacts(code)
		c := &clock{t: time.Unix(1_760_000_000, 0)}
		api := contactsAPI(srv, nil, c)
		p, err := api.Person(t.Context(), "zhangsan")
		if !errors.Is(err, wecom.ErrNoContacts) || p.UserID != "zhangsan" || !p.Unknown || p.Name != "" {
			t.Fatalf("errcode %d: %+v %v; want the id alone and ErrNoContacts", code, p, err)
		}
		// Said once; and not asked again within the day.
		p, err = api.Person(t.Context(), "zhangsan")
		if err != nil || !p.Unknown {
			t.Fatalf("errcode %d, again: %+v %v", code, p, err)
		}
		if p, err = api.Person(t.Context(), "lisi"); err != nil || !p.Unknown {
			t.Fatalf("errcode %d, another user: %+v %v; want no second report", code, p, err)
		}
		if n := srv.Stats().UserGet; n != 2 {
			t.Fatalf("errcode %d: %d user/get calls, want 2 (one per user)", code, n)
		}
	}
}
