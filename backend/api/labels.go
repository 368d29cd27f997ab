package api

// LabelRequest is the body of PUT /api/runs/{id}/label: a person's verdict
// on a run, "good" or "bad" ("" takes it away), and a note.
type LabelRequest struct {
	Label string `json:"label"`
	Note  string `json:"note,omitempty"`
}
