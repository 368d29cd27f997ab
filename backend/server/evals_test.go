package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"hermes/backend/eval"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

func TestLabels_PutAndList(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
	h := newHarness(t, srv, nil, "")
	id := h.start("say done")
	h.watch(id, 0, nil) // to its end

	res, body := fetch(t, "PUT", h.url+"/api/runs/"+id+"/label", `{"label":"bad","note":"made it up"}`)
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("PUT label: %d %s", res.StatusCode, body)
	}
	res, body = fetch(t, "GET", h.url+"/api/labels", "")
	var labels map[string]store.Label
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &labels) != nil || labels[id].Label != "bad" || labels[id].Note != "made it up" {
		t.Errorf("GET labels: %d %s", res.StatusCode, body)
	}
	for _, tc := range []struct {
		path, body, code string
	}{
		{"/api/runs/" + id + "/label", `{"label":"great"}`, "bad_label"},
		{"/api/runs/nope/label", `{"label":"good"}`, "run_not_found"},
	} {
		res, body := fetch(t, "PUT", h.url+tc.path, tc.body)
		if !strings.Contains(string(body), `"code":"`+tc.code+`"`) || res.StatusCode < 400 {
			t.Errorf("PUT %s %s: %d %s", tc.path, tc.body, res.StatusCode, body)
		}
	}
	res, _ = fetch(t, "PUT", h.url+"/api/runs/"+id+"/label", `{"label":""}`)
	_, body = fetch(t, "GET", h.url+"/api/labels", "")
	if res.StatusCode != http.StatusNoContent || strings.Contains(string(body), id) {
		t.Errorf("a label taken away: %d, %s", res.StatusCode, body)
	}
}

func TestEvals_ListAndShow(t *testing.T) {
	srv := llmtest.NewServer(t)
	h := newHarness(t, srv, nil, "")
	ev := &eval.Eval{ID: eval.NewID(time.Now()), Suite: "notes", Tasks: []string{"summary"},
		Variants: []eval.Variant{{Model: "m"}}, Repeat: 2, State: eval.StateDone, Started: time.Now().UTC()}
	err := h.runs.WithStore(func(st *store.Store) error {
		if err := eval.SaveEval(st, ev); err != nil {
			return err
		}
		for rep, pass := range []bool{true, false} {
			if err := eval.SaveResult(st, ev.ID, eval.Result{Task: "summary", Variant: "m", Rep: rep, Pass: pass}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, body := fetch(t, "GET", h.url+"/api/evals", "")
	var list []struct {
		ID     string `json:"id"`
		Passed int    `json:"passed"`
		Failed int    `json:"failed"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list) != 1 || list[0].ID != ev.ID || list[0].Passed != 1 || list[0].Failed != 1 {
		t.Errorf("GET /api/evals: %d %s", res.StatusCode, body)
	}
	res, body = fetch(t, "GET", h.url+"/api/evals/"+ev.ID, "")
	var show struct {
		Results []eval.Result `json:"results"`
		Cells   []eval.Cell   `json:"cells"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &show) != nil || len(show.Results) != 2 || len(show.Cells) != 1 || show.Cells[0].PassAtK != 1 || show.Cells[0].PassHatK != 0 {
		t.Errorf("GET /api/evals/ID: %d %s", res.StatusCode, body)
	}
	res, body = fetch(t, "GET", h.url+"/api/evals/ev-nope", "")
	if res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "eval_not_found") {
		t.Errorf("an unknown eval: %d %s", res.StatusCode, body)
	}
}
