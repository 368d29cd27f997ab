package toolbox

import (
	"errors"
	"fmt"
)

// ErrDuplicateTool is returned when a tool is registered under a name that
// the registry already holds.
var ErrDuplicateTool = errors.New("tool already registered")

// ErrInvalidTool is returned when a tool cannot be registered because its
// name, description, risk, run function or parameter schema is unusable.
var ErrInvalidTool = errors.New("invalid tool")

// ErrNoWorkspace is returned by the file tools when the run's workspace is
// not set or cannot be opened as a directory.
var ErrNoWorkspace = errors.New("workspace unavailable")

// errOutside marks a path that leaves the workspace; the file tools turn it
// into a message for the model.
var errOutside = errors.New("path leaves the workspace")

// errHidden marks a path the sandbox hides: the file tools refuse it too.
var errHidden = errors.New("path hidden from the agent")

// linkedError marks a file with more than one hard link.
type linkedError struct{ links uint64 }

func (e *linkedError) Error() string { return fmt.Sprintf("file has %d hard links", e.links) }

// CallError is an invalid call (unknown tool, arguments that do not match the
// schema). Its Message goes back to the model, which may try again.
type CallError struct {
	Message string
}

func (e *CallError) Error() string { return e.Message }

// toolError is a failure the model can act on; its text is a sentence that
// names the cause and a next step. Err, when set, is kept for errors.Is.
type toolError struct {
	msg string
	err error
}

func (e *toolError) Error() string { return e.msg }
func (e *toolError) Unwrap() error { return e.err }

// Errorf returns a tool failure whose text the model sees as the result, such
// as "no such file a.txt in the workspace; call list_files to see what
// exists". Write it in English, with the cause and what to do next.
func Errorf(format string, args ...any) error {
	return &toolError{msg: fmt.Sprintf(format, args...)}
}

// transientError marks a failure that may well succeed if tried again.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// Transient marks err as a failure worth one silent retry (a connection
// reset, a busy resource). Transient(nil) is nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err: err}
}

// IsTransient reports whether err, or an error it wraps, was marked by
// Transient.
func IsTransient(err error) bool {
	var t *transientError
	return errors.As(err, &t)
}

// ErrBrokenSkill is returned for a skill whose manifest, SKILL.md or MCP
// server cannot be used; the other skills load without it.
var ErrBrokenSkill = errors.New("broken skill")

// ErrDenied marks a call that the policy or a person refused, as `hermes
// tools call` reports it.
var ErrDenied = errors.New("call not allowed")
