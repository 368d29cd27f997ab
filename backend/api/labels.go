package api

// LabelRequest is the body of PUT /api/runs/{id}/label: a person's verdict
// on a run, "good" or "bad" ("" takes it away), and a note.
type LabelRequest struct {
	Label string `json:"label"`
	Note  string `json:"note,omitempty"`
}

// CaseProposal answers GET /api/runs/{id}/case: the test case proposed
// from a run (hermes eval add's), as the [[task]] a person edits before
// saving it, the fixture files it will write beside the suite, and where
// a relative suite path is taken from.
type CaseProposal struct {
	TaskID string   `json:"task_id"`
	TOML   string   `json:"toml"`
	Files  []string `json:"files"`
	// Fixture is the folder, relative to the suite, the files go in.
	Fixture string   `json:"fixture,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	// Home and Workspace are the folders a suite may be saved in.
	Home      string `json:"home"`
	Workspace string `json:"workspace,omitempty"`
	// Suite is the suite path proposed, relative to Home.
	Suite string `json:"suite"`
}

// CaseRequest is the body of POST /api/runs/{id}/case: the suite file to
// append the (edited) [[task]] to, relative to the home or absolute inside
// the home or the run's workspace.
type CaseRequest struct {
	Suite string `json:"suite"`
	TOML  string `json:"toml"`
}

// CaseSaved answers POST /api/runs/{id}/case: where the case went.
type CaseSaved struct {
	Suite string `json:"suite"`
	Files int    `json:"files"`
}
