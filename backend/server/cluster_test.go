package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"hermes/backend/api"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/server"
)

// clusterHarness is `hermes serve` attached to a cluster: its own home with
// no runs, and the replicas' runs through a cluster.Observer.
func clusterHarness(t *testing.T, url string) *harness {
	t.Helper()
	ob, err := cluster.Observe(cluster.Options{Config: config.Cluster{NATSURL: url}, Name: "hermes-serve test"})
	if err != nil {
		t.Fatal(err)
	}
	local := runner.New(runner.Options{Home: t.TempDir()})
	hs := httptest.NewServer(server.New(server.Options{Runs: ob.Merge(local), Token: testToken}))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		ob.Close()
		_ = local.Shutdown(context.Background())
	})
	return &harness{t: t, home: t.TempDir(), url: hs.URL}
}

// untilEvent reads a multiplexed stream until an event of run id for which
// stop is true.
func (r *muxReader) untilEvent(id string, stop func(event.Event) bool) []event.Event {
	r.t.Helper()
	var got []event.Event
	for {
		m, e := r.next()
		if m.name == "end" {
			r.t.Fatalf("the run's stream ended before the event waited for: %s (%s)", types(got), m.data)
		}
		if m.name == "hermes" && e.RunID == id {
			got = append(got, e)
			if stop(e) {
				return got
			}
		}
	}
}

// TestServer_ClusterRunsListedStreamedAndSteered: `hermes serve` attached
// to a cluster lists a run of replica-1 with its replica, streams its
// events in the page's one stream, and its pause, instruction and resume
// reach the replica; an approval on replica-0 does too; a control for a
// run no one has, and a control that is not JSON, are refused as locally.
func TestServer_ClusterRunsListedStreamedAndSteered(t *testing.T) {
	url := clustertest.Start(t).URL
	hold := make(chan struct{})
	model := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: calls("c1", "list_files", `{}`), Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	writes := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("w1", "write_file", `{"path":"a.txt","content":"a"}`)},
		llmtest.Step{Content: "Wrote a.txt."},
	)
	r0 := clustertest.StartRunReplica(t, url, "replica-0", writes.URL, &askWrites{})
	r1 := clustertest.StartRunReplica(t, url, "replica-1", model.URL, nil)
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 2 })
	h := clusterHarness(t, url)

	id, err := r1.Runs.Start(t.Context(), runner.StartRequest{Task: "list the workspace"})
	if err != nil {
		t.Fatal(err)
	}
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	i := slices.IndexFunc(runs, func(s runner.Summary) bool { return s.RunID == id })
	if i < 0 || runs[i].Replica != "replica-1" || !runs[i].Live {
		t.Fatalf("GET /api/runs: %+v; want %s live on replica-1", runs, id)
	}
	var page api.RunPage
	h.call("GET", "/api/runs?limit=20", "", http.StatusOK, &page)
	if len(page.Runs) == 0 || page.Runs[0].RunID != id || page.Runs[0].Replica != "replica-1" {
		t.Fatalf("the first page: %+v", page.Runs)
	}

	mux := h.openMux(t.Context(), "?sub="+id+":0")
	h.control(id, `{"kind":"pause"}`)
	release()
	seen := mux.untilEvent(id, is(event.RunPaused))
	if seen[0].Type != event.RunStarted {
		t.Fatalf("the stream began with %s", seen[0].Type)
	}
	h.control(id, `{"kind":"inject","text":"also say how many files there are"}`)
	h.control(id, `{"kind":"resume"}`)
	rest := mux.untilEnded(id)[id]
	if got := types(rest); !strings.Contains(got, "instruction.injected") || !strings.Contains(got, "run.resumed") || !strings.HasSuffix(got, "run.finished") {
		t.Fatalf("after the pause: %s", got)
	}

	// An approval behind a call that writes, on the other replica.
	wid, err := r0.Runs.Start(t.Context(), runner.StartRequest{Task: "write a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	h.change(mux.id, `{"subscribe":[{"run_id":"`+wid+`","after":0}]}`, http.StatusNoContent)
	asked := mux.untilEvent(wid, is(event.ApprovalRequested))
	req, err := event.Decode[event.ApprovalRequestedData](asked[len(asked)-1])
	if err != nil {
		t.Fatal(err)
	}
	h.call("POST", "/api/runs/"+wid+"/approvals/"+req.ApprovalID, `{"decision":"allow_once"}`, http.StatusAccepted, nil)
	if got := types(mux.untilEnded(wid)[wid]); !strings.Contains(got, "approval.resolved") || !strings.HasSuffix(got, "run.finished") {
		t.Fatalf("after the approval: %s", got)
	}

	// Refused as a local run's would be.
	h.call("POST", "/api/runs/"+id+"/control", `{"kind":"pause"}`, http.StatusConflict, nil)
	h.call("POST", "/api/runs/20260101-no-such-run/control", `{"kind":"pause"}`, http.StatusNotFound, nil)
	if status, body := (browserRequest{"POST", "/api/runs/" + wid + "/control", `{"kind":"stop"}`, map[string]string{"Content-Type": "text/plain"}}).send(t, h.url, false); status != http.StatusForbidden || !strings.Contains(string(body), "not_json") {
		t.Fatalf("a text/plain control: %d %s", status, body)
	}
	if status, body := (browserRequest{"POST", "/api/runs/" + wid + "/control", `{"kind":"stop"}`, map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}}).send(t, h.url, false); status != http.StatusForbidden || !strings.Contains(string(body), "cross_site") {
		t.Fatalf("a cross-site control: %d %s", status, body)
	}

	var st api.ClusterStatus
	h.call("GET", "/api/cluster", "", http.StatusOK, &st)
	if !st.Enabled || len(st.Replicas) != 2 || st.Replicas[0].ID != "replica-0" || st.Replicas[1].ID != "replica-1" || st.Error != nil {
		t.Fatalf("GET /api/cluster: %+v", st)
	}
}

// TestServer_NoCluster: without [cluster] the cluster's status says so.
func TestServer_NoCluster(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t), nil, "")
	var st api.ClusterStatus
	h.call("GET", "/api/cluster", "", http.StatusOK, &st)
	if st.Enabled || st.Replicas == nil || len(st.Replicas) != 0 {
		t.Fatalf("GET /api/cluster without a cluster: %+v", st)
	}
}
