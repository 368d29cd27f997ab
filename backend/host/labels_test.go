package host_test

import (
	"testing"
	"time"

	"hermes/backend/host"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runapi"
	"hermes/backend/store"
)

// listByLabel: a page of the runs a person labelled bad holds only those,
// asked of the owner's Manager or through the client attached to it.
func listByLabel(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	home, _ := newHome(t, llmtest.NewServer(t, llmtest.Step{Content: "One."}, llmtest.Step{Content: "Two."}))
	runs := open(t, home)
	bad := start(t, runs, "say one")
	finished(t, watch(t, runs, bad).rest())
	good := start(t, runs, "say two")
	finished(t, watch(t, runs, good).rest())
	// The owner lets hermes.db go once no run is live.
	st, err := host.OpenStore(home, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	err = st.SetLabel(bad, store.Label{Label: store.LabelBad, Note: "counted wrong"})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	pager, ok := runs.(runapi.Pager)
	if !ok {
		t.Fatalf("%T pages no runs", runs)
	}
	for _, q := range []runapi.ListQuery{{Label: store.LabelBad, Limit: 10}, {Search: "COUNTED", Limit: 10}} {
		page, err := pager.ListPage(q)
		if err != nil || len(page.Runs) != 1 || page.Runs[0].RunID != bad || page.Next != "" {
			t.Errorf("ListPage(%+v) = %+v, %v; want only %s", q, page, err, bad)
		}
	}
	if page, err := pager.ListPage(runapi.ListQuery{Label: store.LabelGood, Limit: 10}); err != nil || len(page.Runs) != 0 {
		t.Errorf("ListPage(good) = %+v, %v; want none", page, err)
	}
}
