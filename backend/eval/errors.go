package eval

import (
	"errors"
	"fmt"
)

var (
	// ErrSuite is returned by Load for a suite that cannot be read or that
	// has a mistake; a *SuiteError says where.
	ErrSuite = errors.New("eval suite error")

	// ErrNoEval is returned for an eval id that hermes.db does not hold.
	ErrNoEval = errors.New("no such eval")

	// ErrNoRun is returned by AddCase for a run whose log cannot be found
	// or read.
	ErrNoRun = errors.New("no such run")

	// ErrJudge is a judge's answer that holds no score (*NoScoreError).
	ErrJudge = errors.New("the judge's answer holds no score")
)

// NoScoreError is the answer of a judge that holds no score, clipped; it
// is ErrJudge.
type NoScoreError struct{ Reply string }

func (e *NoScoreError) Error() string { return fmt.Sprintf("%v: %q", ErrJudge, e.Reply) }

// Is makes errors.Is(err, ErrJudge) true.
func (e *NoScoreError) Is(target error) bool { return target == ErrJudge }
