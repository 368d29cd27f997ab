package eval

import "errors"

var (
	// ErrSuite is returned by Load for a suite that cannot be read or that
	// has a mistake; a *SuiteError says where.
	ErrSuite = errors.New("eval suite error")

	// ErrNoEval is returned for an eval id that hermes.db does not hold.
	ErrNoEval = errors.New("no such eval")

	// ErrNoRun is returned by AddCase for a run whose log cannot be found
	// or read.
	ErrNoRun = errors.New("no such run")

	// ErrJudge is returned when a judge's answer holds no score.
	ErrJudge = errors.New("the judge's answer holds no score")
)
