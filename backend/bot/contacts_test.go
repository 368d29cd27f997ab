package bot_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/runner"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// company is the contacts of a small company: 研发部 (2) with 后端组 (3)
// under it, and 市场部 (4); 张三 is in 后端组, 王五 in 市场部.
func company(srv *wecomtest.Server) {
	srv.AddDepartment(1, "示例科技", 0)
	srv.AddDepartment(2, "研发部", 1)
	srv.AddDepartment(3, "后端组", 2)
	srv.AddDepartment(4, "市场部", 1)
	srv.AddUser("zhangsan", "张三", 3)
	srv.AddUser("wangwu", "王五", 4)
	srv.MapOpenID("woOPEN-zhang", "zhangsan")
}

// askedBy is who run.started and the runs list say asked for the run of
// task, which must agree.
func askedBy(t *testing.T, h *harness, task string) *event.Asker {
	t.Helper()
	runs, err := h.runs.List()
	if err != nil {
		t.Fatal(err)
	}
	var run *runner.Summary
	for i := range runs {
		if runs[i].Task == task {
			run = &runs[i]
		}
	}
	if run == nil {
		t.Fatalf("no run of %q among %d", task, len(runs))
	}
	events, err := h.runs.Events(run.RunID)
	if err != nil || len(events) == 0 || events[0].Type != event.RunStarted {
		t.Fatalf("events of %s: %d, %v", run.RunID, len(events), err)
	}
	d, err := event.Decode[event.RunStartedData](events[0])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.AskedBy, run.AskedBy) {
		t.Fatalf("run.started says %+v asked, the runs list %+v", d.AskedBy, run.AskedBy)
	}
	return d.AskedBy
}

// waitRefreshes waits for the contacts lookups the application's API
// client refreshes behind the answers it gave.
func waitRefreshes(h *harness) { h.bot.Platform().(*wecom.App).API().WaitRefreshes() }

func ask(t *testing.T, h *harness, wecom *wecomtest.Server, from, user, msgID, task string) {
	t.Helper()
	h.send(from, msgID, task)
	waitMessage(t, wecom, user, "answer to: "+task)
}

func TestBot_ContactsNameAndDepartmentCachedADay(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	company(wecom)
	h := newHarness(t, "", echoModel(t), botConfig(wecom))

	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m1", "summarise the notes")
	want := &event.Asker{UserID: "zhangsan", Name: "张三", Departments: []string{"后端组"}}
	if got := askedBy(t, h, "summarise the notes"); !reflect.DeepEqual(got, want) {
		t.Fatalf("asked by %+v, want %+v", got, want)
	}

	// The same day: the entry in hermes.db answers, WeCom is not asked.
	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m2", "and then?")
	if got := askedBy(t, h, "and then?"); !reflect.DeepEqual(got, want) {
		t.Fatalf("asked by %+v, want %+v", got, want)
	}
	if st := wecom.Stats(); st.UserGet != 1 || st.DeptGet != 3 {
		t.Fatalf("%d user/get and %d department/get calls; want 1 and 3 (后端组, 研发部, 示例科技) for both tasks", st.UserGet, st.DeptGet)
	}

	// A day on (the entry is 25 hours old), it is still used while it is
	// looked up again; the next task has the new name.
	age(t, h, testCorpID+"/user/zhangsan", 25*time.Hour)
	wecom.AddUser("zhangsan", "张三丰", 3)
	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m3", "the day after")
	if got := askedBy(t, h, "the day after"); got == nil || got.Name != "张三" {
		t.Fatalf("asked by %+v, want the cached name while it is refreshed", got)
	}
	waitRefreshes(h)
	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m4", "once refreshed")
	if got := askedBy(t, h, "once refreshed"); got == nil || got.Name != "张三丰" || got.Departments[0] != "后端组" {
		t.Fatalf("asked by %+v, want the refreshed name", got)
	}
	if n := wecom.Stats().UserGet; n != 2 {
		t.Fatalf("%d user/get calls, want 2", n)
	}
}

// age makes the cached contact of key d older.
func age(t *testing.T, h *harness, key string, d time.Duration) {
	t.Helper()
	data, err := h.store.CachedContact(key)
	if err != nil || data == nil {
		t.Fatalf("no cached contact %s: %v", key, err)
	}
	var entry map[string]any
	if err := json.Unmarshal(data, &entry); err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(time.RFC3339Nano, entry["fetched"].(string))
	if err != nil {
		t.Fatal(err)
	}
	entry["fetched"] = at.Add(-d)
	data, _ = json.Marshal(entry)
	if err := h.store.CacheContact(key, data); err != nil {
		t.Fatal(err)
	}
}

func TestBot_ContactsWithoutPermissionFallBackToTheID(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	company(wecom)
	wecom.DenyContacts(wecomtest.CodeNoPrivilege)
	h := newHarness(t, "", echoModel(t), botConfig(wecom))

	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m1", "first task")
	ask(t, h, wecom, "wangwu", "wangwu", "m2", "second task")
	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m3", "third task")
	for task, id := range map[string]string{"first task": "zhangsan", "second task": "wangwu", "third task": "zhangsan"} {
		if got := askedBy(t, h, task); !reflect.DeepEqual(got, &event.Asker{UserID: id}) {
			t.Errorf("%s: asked by %+v, want the id %s alone", task, got, id)
		}
	}
	if n := strings.Count(h.logs.String(), "may not read the contacts"); n != 1 {
		t.Errorf("the missing permission is logged %d times, want once:\n%s", n, h.logs)
	}
	if n := wecom.Stats().UserGet; n != 2 {
		t.Errorf("%d user/get calls, want 2: a refusal is cached like an answer", n)
	}
}

func TestBot_AllowDepartments(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	company(wecom)
	model := echoModel(t)
	cfg := botConfig(wecom)
	cfg.AllowDepartments = []string{"财务部", "2"}
	h := newHarness(t, "", model, cfg)

	// 张三 is in 后端组, a sub-department of 研发部 (2).
	ask(t, h, wecom, "woOPEN-zhang", "zhangsan", "m1", "summarise the notes")

	// 王五 in 市场部 is told, in the language he writes, and nothing runs.
	h.send("wangwu", "m2", "summarise the budget")
	waitMessage(t, wecom, "wangwu", "allow_departments")
	h.send("wangwu", "m3", "帮我总结预算")
	got := waitMessage(t, wecom, "wangwu", "请联系机器人的管理员")
	if len(got) != 2 {
		t.Fatalf("王五 got %q, want one refusal per message", got)
	}
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1: the refused messages must start no run", n)
	}
	runs, _ := h.runs.List()
	for _, r := range runs {
		if strings.Contains(r.Origin, "wangwu") {
			t.Fatalf("a run for 王五: %+v", r)
		}
	}

	// Someone the contacts cannot place is not let in.
	wecom.DenyContacts(wecomtest.CodeNoPrivilege)
	h.send("lisi", "m4", "hello")
	waitMessage(t, wecom, "lisi", "contacts permission")
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}
