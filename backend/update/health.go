package update

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// HealthReport is a binary's answer to its health check, one JSON line.
type HealthReport struct {
	Version string `json:"version"`
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
}

// The contract every Hermes binary keeps for the updater: `BINARY version`
// prints "hermes VERSION", and `BINARY update --health --home DIR` runs the
// migrations and checks of its first start and answers a HealthReport.
var healthArgs = []string{"update", "--health", "--home"}

// Health answers a health check for the running binary: it runs the
// migrations of version's first start, then check (the config loads, the
// store opens…), and writes the report to w. The returned error is the
// failure the report carries.
func Health(ctx context.Context, w io.Writer, home, version string, check func(context.Context) error) error {
	err := Migrate(ctx, home, version)
	if err == nil && check != nil {
		err = check(ctx)
	}
	report := HealthReport{Version: version, OK: err == nil}
	if err != nil {
		report.Error = err.Error()
	}
	line, _ := json.Marshal(report)
	if _, wErr := fmt.Fprintf(w, "%s\n", line); wErr != nil && err == nil {
		err = fmt.Errorf("write health report: %w", wErr)
	}
	return err
}

// preflight runs `exe version` and checks the binary starts on this machine
// and is the version expected. It changes nothing, so it runs before the
// new binary takes the old one's name.
func (u *Updater) preflight(ctx context.Context, exe, want string) error {
	out, err := u.run(ctx, exe, "version")
	if err != nil {
		return err
	}
	fields := strings.Fields(out)
	if len(fields) == 0 || fields[len(fields)-1] != want {
		return fmt.Errorf("%s version answered %q, want %s: %w", exe, strings.TrimSpace(out), want, ErrHealth)
	}
	return nil
}

// healthCheck runs the full health check of the binary at exe in home.
func (u *Updater) healthCheck(ctx context.Context, exe, want, home string) error {
	out, err := u.run(ctx, exe, append(healthArgs, home)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var report HealthReport
	if jErr := json.Unmarshal([]byte(lines[len(lines)-1]), &report); jErr != nil {
		if err != nil {
			return err
		}
		return fmt.Errorf("%s answered %q to its health check: %w", exe, strings.TrimSpace(out), ErrHealth)
	}
	switch {
	case !report.OK:
		return fmt.Errorf("%s %s: %s: %w", exe, report.Version, report.Error, ErrHealth)
	case report.Version != want:
		return fmt.Errorf("%s reports version %s, want %s: %w", exe, report.Version, want, ErrHealth)
	case err != nil:
		return err
	}
	return nil
}

// run starts exe with args under the health timeout and returns its output.
func (u *Updater) run(ctx context.Context, exe string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, u.opts.HealthTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	// A check killed at the timeout may leave a child holding its output
	// open; stop waiting for it soon after.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w: %w (%s)", exe, strings.Join(args, " "), ErrHealth, err, tail(stderr.String(), 500))
	}
	return stdout.String(), nil
}

// tail is the last n bytes of s, trimmed: enough of a crash's output to
// say what went wrong.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}
