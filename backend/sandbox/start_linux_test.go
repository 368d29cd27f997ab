//go:build linux && (amd64 || arm64)

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func enforced(t *testing.T) {
	t.Helper()
	if st := (Policy{Mode: Workspace}).Status(); !st.Enforced {
		t.Skipf("no sandbox on this machine: %s", st.Why)
	}
}

// start runs command with bash under p in its workspace and returns what
// it printed, the process, and Wait's error.
func start(t *testing.T, ctx context.Context, p Policy, command string) (string, *Process, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = p.Workspace
	cmd.Stdout, cmd.Stderr = &out, &out
	pr, err := p.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	err = pr.Wait()
	return out.String(), pr, err
}

func TestStart_ReadOnly(t *testing.T) {
	enforced(t)
	userAt(t, t.TempDir())
	ws := t.TempDir()
	out, pr, err := start(t, t.Context(), Policy{Mode: ReadOnly, Workspace: ws},
		`echo x > in-workspace.txt; echo "tmp $TMPDIR"; echo t > "$TMPDIR/t" && cat "$TMPDIR/t"`)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "in-workspace.txt")); err == nil {
		t.Fatal("read-only mode wrote the workspace")
	}
	if !strings.Contains(out, "\nt\n") {
		t.Fatalf("$TMPDIR was not writable:\n%s", out)
	}
	if b := pr.Blocked(out); len(b) != 1 || b[0].Kind != DenialWrite {
		t.Fatalf("Blocked = %+v\n%s", b, out)
	}
	tmp := regexp.MustCompile(`tmp (\S+)`).FindStringSubmatch(out)[1]
	if _, err := os.Stat(tmp); err == nil {
		t.Fatalf("the private temp folder %s outlived the command", tmp)
	}
}

// Cancelling the context ends the command and everything it started; a
// process left holding the output does not hold up Wait.
func TestStart_CancelAndLeftovers(t *testing.T) {
	enforced(t)
	userAt(t, t.TempDir())
	ws := t.TempDir()
	for _, mode := range []Mode{Workspace, Off} {
		t.Run(string(mode), func(t *testing.T) {
			out, _, err := start(t, t.Context(), Policy{Mode: mode, Workspace: ws}, "sleep 600 & echo pid:$!")
			if errors.Is(err, exec.ErrWaitDelay) {
				t.Fatal("Wait waited out the delay for a leftover holding the output")
			}
			checkGone(t, out)

			ctx, cancel := context.WithCancel(t.Context())
			cmd := exec.CommandContext(ctx, "bash", "-c", "sleep 601 & echo pid:$!; wait")
			cmd.Dir = ws
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = w
			pr, err := Policy{Mode: mode, Workspace: ws}.Start(cmd)
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			// The shell has started its child once it has said its pid.
			line, _ := bufio.NewReader(r).ReadString('\n')
			cancel()
			pr.Wait()
			r.Close()
			checkGone(t, line)
		})
	}
}

func checkGone(t *testing.T, out string) {
	t.Helper()
	for _, m := range regexp.MustCompile(`pid:(\d+)`).FindAllStringSubmatch(out, -1) {
		pid, _ := strconv.Atoi(m[1])
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, _ := unix.Poll(fds, 10_000)
		unix.Close(fd)
		if n == 0 {
			t.Errorf("process %d outlived its command", pid)
		}
	}
}

// What a sandboxed command is not allowed is refused by the kernel, the
// watcher records it, and the command can go on.
func TestWatcher_RecordsRefusedCalls(t *testing.T) {
	enforced(t)
	userAt(t, t.TempDir())
	out, pr, _ := start(t, t.Context(), Policy{Mode: Workspace, Workspace: t.TempDir()},
		"unshare -U true; echo > /dev/tcp/127.0.0.1/9; echo still here")
	if !strings.Contains(out, "still here") {
		t.Fatalf("the command did not go on:\n%s", out)
	}
	var got []string
	for _, d := range pr.Blocked(out) {
		got = append(got, d.String())
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"unshare() by unshare", "socket(AF_INET) by bash (the sandbox has no network)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Blocked lacks %q:\n%s", want, joined)
		}
	}
}

func TestStatus_Linux(t *testing.T) {
	if st := (Policy{Mode: Off}).Status(); st.Enforced || st.Why == "" {
		t.Fatalf("off: %+v", st)
	}
	st := Policy{Mode: Workspace}.Status()
	if abiOnce() < 1 {
		if st.Enforced || !strings.Contains(st.Why, "Landlock") {
			t.Fatalf("without Landlock: %+v", st)
		}
		return
	}
	if !st.Enforced || !strings.Contains(st.How, "Landlock ABI") {
		t.Fatalf("with Landlock: %+v", st)
	}
}
