package toolbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestErrors_Transient(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"marked", Transient(io.ErrUnexpectedEOF), true},
		{"marked then wrapped", fmt.Errorf("fetch page: %w", Transient(io.ErrUnexpectedEOF)), true},
		{"a tool error", Errorf("no such file a.txt in the workspace; call list_files to see what exists"), false},
		{"a plain error", io.EOF, false},
		{"a deadline is for the loop to judge", context.DeadlineExceeded, false},
		{"nil", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := IsTransient(c.err); got != c.want {
				t.Errorf("IsTransient(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
	if Transient(nil) != nil {
		t.Errorf("Transient(nil) is not nil")
	}
	err := Transient(io.ErrUnexpectedEOF)
	if !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != io.ErrUnexpectedEOF.Error() {
		t.Errorf("Transient changed the error it marks: %v", err)
	}
}

func TestErrors_TextForTheModel(t *testing.T) {
	if got := Errorf("no such file %s in the workspace", "a.txt").Error(); got != "no such file a.txt in the workspace" {
		t.Errorf("Errorf text = %q", got)
	}
	var err error = &CallError{Message: "unknown tool"}
	var ce *CallError
	if !errors.As(err, &ce) || err.Error() != "unknown tool" {
		t.Errorf("CallError text = %q", err)
	}
}
