package toolbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestExecuteCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the cases are bash command lines")
	}
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry()
	if err := reg.Register(ExecuteCommand(0, 200, nil)); err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, args string) (string, error) {
		prep, err := reg.Prepare("execute_command", args)
		if err != nil {
			t.Fatal(err)
		}
		return prep.Tool.Run(ctx, Env{Workspace: ws}, prep.Args)
	}
	tests := []struct {
		name, args      string
		want, notWanted []string
		wantErr         string
	}{
		{"runs in the workspace", `{"command":"pwd; echo hi >&2"}`, []string{"exit code 0", ws, "hi"}, nil, ""},
		{"exit code", `{"command":"exit 7"}`, []string{"exit code 7", "(no output)"}, nil, ""},
		{"dir", `{"command":"pwd","dir":"sub"}`, []string{filepath.Join(ws, "sub")}, nil, ""},
		{"head and tail kept", `{"command":"echo BEGIN; seq 1 2000; echo END"}`, []string{"BEGIN", "END", "bytes of output cut here"}, []string{"\n1000\n"}, ""},
		{"dir outside", `{"command":"pwd","dir":"../"}`, nil, nil, "outside"},
		{"dir through a symlink out", `{"command":"pwd","dir":"out"}`, nil, nil, "outside"},
		{"dir missing", `{"command":"pwd","dir":"nope"}`, nil, nil, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t.Context(), tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v; want an error containing %q", out, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWanted {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q, which the cap should have cut:\n%s", w, out)
				}
			}
		})
	}
	t.Run("timeout kills the shell and its children", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := run(ctx, `{"command":"sleep 30 | cat"}`)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want the deadline", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("took %s: the pipeline outlived the timeout", d)
		}
	})
}

func TestExecuteCommand_DescribesTheShell(t *testing.T) {
	for goos, want := range map[string]string{"linux": "bash", "windows": "PowerShell"} {
		shell, name := shellFor(goos)
		if !strings.Contains(name, want) || len(shell) == 0 {
			t.Errorf("%s: shell %v, described as %q", goos, shell, name)
		}
	}
	if d := ExecuteCommand(0, 100, nil).Description; !strings.Contains(d, "bash") && !strings.Contains(d, "PowerShell") {
		t.Errorf("the description does not name the shell: %s", d)
	}
}

func TestHeadTail(t *testing.T) {
	h := newHeadTail(10)
	for _, chunk := range []string{"abc", "defgh", "ijklmnop", "qrstuvwxyz"} {
		if _, err := h.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.String(); !h.Cut() || !strings.HasPrefix(got, "abcde\n") || !strings.HasSuffix(got, "\nvwxyz") {
		t.Fatalf("got %q", got)
	}
	short := newHeadTail(10)
	if _, err := short.Write([]byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if short.Cut() || short.String() != "0123456789" {
		t.Fatalf("under the limit: %q", short.String())
	}
}
