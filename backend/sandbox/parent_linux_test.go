//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// No command reads Hermes's environment or memory, whichever of its
// threads started it: the main thread included, which Go may lend to the
// goroutine that confines a command and then parks for good.
func TestStart_NeverReadsHermes(t *testing.T) {
	enforced(t)
	userAt(t, t.TempDir())
	ws := t.TempDir()
	// /proc/PID/environ is the environment Hermes was started with: its PATH
	// stands for the keys a user exports.
	pid := os.Getpid()
	command := fmt.Sprintf(`cat /proc/%d/environ /proc/%d/task/*/environ 2>/dev/null | tr '\0' '\n' | grep -c '^PATH='; head -c 8 /proc/%d/mem 2>&1 | head -1`, pid, pid, pid)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var leaks []string
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				out, _, _ := start(t, t.Context(), Policy{Mode: Workspace, Workspace: ws}, command)
				if !strings.HasPrefix(out, "0\n") || !strings.Contains(out, "Permission denied") {
					mu.Lock()
					leaks = append(leaks, out)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(leaks) > 0 {
		t.Fatalf("%d commands in 100 read Hermes's environment or memory; the first:\n%s", len(leaks), leaks[0])
	}
}
