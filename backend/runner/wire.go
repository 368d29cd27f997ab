package runner

import "hermes/backend/api"

// The runs' requests and answers are the local API's wire types, declared
// in backend/api; these names keep them at hand for the runner's callers.
//
//nolint:revive // aliases, each documented where it is declared
type (
	Summary       = api.Summary
	RunPage       = api.RunPage
	StartRequest  = api.StartRequest
	Overrides     = api.Overrides
	ForkRequest   = api.ForkRequest
	RunRef        = api.RunRef
	Answer        = api.Answer
	APIError      = api.Error
	ModelCheck    = api.ModelCheck
	Settings      = api.Settings
	Notice        = api.Notice
	ConfigProblem = api.ConfigProblem
)

// ControlCancel cuts a live run short at once, as a second Ctrl-C does:
// the unfinished iteration is done again on resume. The manager carries it
// out itself; the run never sees it.
const ControlCancel = api.ControlCancel

// Kinds of notices (api.Notice).
const (
	NoticeConfigError    = api.NoticeConfigError
	NoticeConfigReloaded = api.NoticeConfigReloaded
	NoticeUpdate         = api.NoticeUpdate
)
