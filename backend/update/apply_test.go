package update

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestApply_UpdateRollbackClean(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	srv := newFeedServer(t)
	srv.publish(t, newBuild, testPriv, testPriv, nil)
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
	var steps []Step
	u.opts.OnStep = func(s Step) { steps = append(steps, s) }

	if _, err := update(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if v := versionOf(t, exe); v != "1.1.0" {
		t.Fatalf("installed %s, want 1.1.0", v)
	}
	if got := strings.Join(stepNames(steps), ","); got != "downloaded,staged,checked,swapped,healthy" {
		t.Fatalf("steps %s", got)
	}
	if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\nmigrated to 1.1.0\n" {
		t.Fatalf("the first start of 1.1.0 did not migrate: %q", data)
	}
	st, err := os.Stat(exe)
	if err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Fatalf("the new binary is not executable: %v %v", st, err)
	}
	if exists(u.journalPath()) || exists(u.stagedPath()) {
		t.Fatal("journal or staged file left after a successful update")
	}

	// The running 1.0.0 process is told it is up to date now.
	if _, newer, err := u.Check(t.Context()); err != nil || newer {
		t.Fatalf("check after the update: newer=%v err=%v", newer, err)
	}

	v, err := u.Rollback(t.Context())
	if err != nil || v != "1.0.0" {
		t.Fatalf("rollback: %s %v", v, err)
	}
	if v := versionOf(t, exe); v != "1.0.0" {
		t.Fatalf("after rollback %s runs, want 1.0.0", v)
	}
	if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\n" {
		t.Fatalf("rollback did not restore the migrated file: %q", data)
	}
	// A second rollback goes forward again.
	if v, err := u.Rollback(t.Context()); err != nil || v != "1.1.0" || versionOf(t, exe) != "1.1.0" {
		t.Fatalf("second rollback: %s %v", v, err)
	}

	freed, err := u.Clean()
	if err != nil || freed == 0 {
		t.Fatalf("clean freed %d: %v", freed, err)
	}
	if exists(u.versionDir("1.1.0")) {
		t.Fatal("clean left the download")
	}
	if !exists(filepath.Join(u.previousDir(), u.binaryName())) {
		t.Fatal("clean removed the binary kept for rollback")
	}
}

func stepNames(steps []Step) []string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = string(s)
	}
	return names
}

// A release that fails its health check on the copy of the home never
// takes the old binary's name and never touches the home; one that passes
// there and fails once installed is rolled back with the files it migrated.
func TestApply_FailedHealthRollsBack(t *testing.T) {
	tests := []struct {
		name    string
		b       build
		timeout time.Duration
		steps   string
	}{
		{name: "health check fails after migrating", b: unhealthyBuild, steps: "downloaded,staged"},
		{name: "migration fails", b: failingBuild, steps: "downloaded,staged"},
		{name: "migration dies half-way", b: crashingBuild, steps: "downloaded,staged"},
		{name: "answers version, crashes otherwise", b: brokenBuild, steps: "downloaded,staged"},
		{name: "health check hangs", b: hangingBuild, timeout: 2 * time.Second, steps: "downloaded,staged"},
		{name: "fails only once installed", b: stagedOnly, steps: "downloaded,staged,checked,swapped,rolled_back"},
	}
	buildAll(t, oldBuild, unhealthyBuild, failingBuild, crashingBuild, brokenBuild, hangingBuild, stagedOnly)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFeedServer(t)
			srv.publish(t, tt.b, testPriv, testPriv, nil)
			exe, home := install(t, oldBuild)
			before, _ := fileSHA256(exe)
			u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
			if tt.timeout > 0 {
				u.opts.HealthTimeout = tt.timeout
			}
			var steps []Step
			u.opts.OnStep = func(s Step) { steps = append(steps, s) }

			_, err := update(t.Context(), u)
			if !errors.Is(err, ErrHealth) {
				t.Fatalf("err = %v, want ErrHealth", err)
			}
			if after, _ := fileSHA256(exe); after != before || versionOf(t, exe) != "1.0.0" {
				t.Fatal("the old binary is not in place")
			}
			if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\n" {
				t.Fatalf("the migrated file was not restored: %q", data)
			}
			if got := strings.Join(stepNames(steps), ","); got != tt.steps {
				t.Fatalf("steps %s, want %s", got, tt.steps)
			}
			assertNoLeftovers(t, u)
		})
	}
}

// assertNoLeftovers checks that no update is in flight: no journal, no
// staged binary, no copy of the home.
func assertNoLeftovers(t *testing.T, u *Updater) {
	t.Helper()
	if exists(u.journalPath()) || exists(u.stagedPath()) {
		t.Fatal("journal or staged file left")
	}
	if copies, _ := filepath.Glob(filepath.Join(u.dir(), "check-*")); len(copies) > 0 {
		t.Fatalf("copies of the home left: %q", copies)
	}
}

func TestApply_PreflightRefusesABinaryThatDoesNotStart(t *testing.T) {
	srv := newFeedServer(t)
	exe, home := install(t, oldBuild)
	// A "binary" that is not one: it passes every signature check, because
	// the release key signed it, but cannot run on this machine.
	bogus := filepath.Join(t.TempDir(), "bogus")
	writeFile(t, bogus, "#!/nonexistent/interpreter\n")
	art, err := SignArtefact(bogus, "1.1.0", platform, FormBinary, "bin/bogus", testPriv)
	if err != nil {
		t.Fatal(err)
	}
	srv.files["bogus"] = []byte(readFile(t, bogus))
	feed := Feed{Releases: []Release{{Version: "1.1.0", Platforms: map[string]Artefact{platform: art}}}}
	if srv.feed, err = SignFeed(feed, testPriv); err != nil {
		t.Fatal(err)
	}
	before, _ := fileSHA256(exe)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
	if _, err := update(t.Context(), u); !errors.Is(err, ErrHealth) {
		t.Fatalf("err = %v, want ErrHealth", err)
	}
	if after, _ := fileSHA256(exe); after != before {
		t.Fatal("a binary that cannot start replaced the old one")
	}
	if exists(u.journalPath()) || exists(u.stagedPath()) {
		t.Fatal("journal or staged file left")
	}
}

// TestApply_KilledAtEveryStep kills the updating process (SIGKILL) at each
// durable step and while each health check runs; the binary in place must
// then be the old one or the new one, working, and the next update must
// finish the job.
func TestApply_KilledAtEveryStep(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	kills := []struct{ name, env string }{
		{"downloaded", "TINYHERMES_KILL_AT=" + string(StepDownloaded)},
		{"staged", "TINYHERMES_KILL_AT=" + string(StepStaged)},
		{"during the check of the staged binary", "TINYHERMES_KILL_DURING=staged"},
		{"checked", "TINYHERMES_KILL_AT=" + string(StepChecked)},
		{"swapped", "TINYHERMES_KILL_AT=" + string(StepSwapped)},
		{"during the check of the installed binary", "TINYHERMES_KILL_DURING=installed"},
	}
	for _, k := range kills {
		t.Run(k.name, func(t *testing.T) {
			srv := newFeedServer(t)
			srv.publish(t, newBuild, testPriv, testPriv, nil)
			exe, home := install(t, oldBuild)
			feed := srv.URL + "/feed.json"

			killedUpdate(t, exe, home, feed, k.env)
			// The next start runs whichever version is in place.
			if v := versionOf(t, exe); v != "1.0.0" && v != "1.1.0" {
				t.Fatalf("after the kill the binary says %q", v)
			}
			out, err := exec.Command(exe, "update", "--home", home, "--feed", feed).CombinedOutput()
			if err != nil {
				t.Fatalf("the update after the kill failed: %v\n%s", err, out)
			}
			if v := versionOf(t, exe); v != "1.1.0" {
				t.Fatalf("installed %s, want 1.1.0\n%s", v, out)
			}
			if data := readFile(t, filepath.Join(home, "data.txt")); data != "original\nmigrated to 1.1.0\n" {
				t.Fatalf("migrations ran %q", data)
			}
			assertNoLeftovers(t, newUpdater(t, exe, home, feed, "1.1.0"))
		})
	}
}

// A release that answers version but crashes otherwise, with the updater
// killed while it checks it, never has the old binary's name: the next
// update undoes the attempt, refuses the release again and leaves the old
// binary working.
func TestApply_BrokenReleaseKilledDuringItsCheck(t *testing.T) {
	buildAll(t, oldBuild, brokenBuild)
	srv := newFeedServer(t)
	srv.publish(t, brokenBuild, testPriv, testPriv, nil)
	exe, home := install(t, oldBuild)
	before, _ := fileSHA256(exe)
	feed := srv.URL + "/feed.json"

	killedUpdate(t, exe, home, feed, "TINYHERMES_KILL_DURING=any")
	if after, _ := fileSHA256(exe); after != before {
		t.Fatal("the broken release took the old binary's name")
	}
	out, err := exec.Command(exe, "update", "--home", home, "--feed", feed).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), ErrHealth.Error()) {
		t.Fatalf("the next update: %v\n%s", err, out)
	}
	if out, err := exec.Command(exe, "update", "--check", "--home", home, "--feed", feed).CombinedOutput(); err != nil {
		t.Fatalf("the installed binary does not work: %v\n%s", err, out)
	}
	if after, _ := fileSHA256(exe); after != before || readFile(t, filepath.Join(home, "data.txt")) != "original\n" {
		t.Fatal("the old binary or the home was changed")
	}
	assertNoLeftovers(t, newUpdater(t, exe, home, feed, "1.0.0"))
}

// killedUpdate runs `exe update` with env, which makes it die by SIGKILL.
func killedUpdate(t *testing.T, exe, home, feed, env string) {
	t.Helper()
	cmd := exec.Command(exe, "update", "--home", home, "--feed", feed)
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	killed := errors.As(err, &exit) && (!exit.Exited() || runtime.GOOS == "windows")
	if !killed || strings.Contains(string(out), "updated to") {
		t.Fatalf("the update was not killed (%s): %v\n%s", env, err, out)
	}
}

// A copy of the home that cannot be removed (a file of it held open, as an
// antivirus on Windows or Wine may) does not stop the update; a later
// start removes it.
func TestApply_CopyOfTheHomeHeldOpen(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	srv := newFeedServer(t)
	srv.publish(t, newBuild, testPriv, testPriv, nil)
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
	removeAll = func(string) error { return errors.New("the file is being used by another process") }
	t.Cleanup(func() { removeAll = os.RemoveAll })
	if _, err := update(t.Context(), u); err != nil {
		t.Fatalf("an update whose copy of the home stayed: %v", err)
	}
	if v := versionOf(t, exe); v != "1.1.0" {
		t.Fatalf("installed %s, want 1.1.0", v)
	}
	if copies, _ := filepath.Glob(filepath.Join(u.dir(), "check-*")); len(copies) == 0 {
		t.Fatal("the test's copy of the home went anyway")
	}
	removeAll = os.RemoveAll
	if err := u.Recover(t.Context()); err != nil {
		t.Fatal(err)
	}
	if copies, _ := filepath.Glob(filepath.Join(u.dir(), "check-*")); len(copies) > 0 {
		t.Fatalf("a later start left %v", copies)
	}
}
