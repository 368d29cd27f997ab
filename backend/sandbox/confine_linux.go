//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"hermes/backend/i18n"
)

// The Landlock rights of a rule.
const (
	readFile  = ll.AccessFSExecute | ll.AccessFSReadFile
	readDir   = readFile | ll.AccessFSReadDir
	writeFile = readFile | ll.AccessFSWriteFile | ll.AccessFSTruncate
	writeDir  = readDir | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSRemoveDir |
		ll.AccessFSRemoveFile | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeSym | ll.AccessFSRefer
	// handledFS is every right up to ABI 7; the rules grant none of making
	// device nodes, and the device ioctls only on terminals.
	handledFS = writeDir | ll.AccessFSMakeChar | ll.AccessFSMakeBlock | ll.AccessFSIoctlDev
)

var abiOnce = sync.OnceValue(func() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
})

// Enforced reports whether p's processes run confined on this machine:
// Status's Enforced, without the rest of the status (such as the look for
// setsid on PATH), for a policy's check of each call.
func (p Policy) Enforced() bool { return p.Mode != Off && p.Mode != "" && abiOnce() >= 1 }

// Status says how p's processes run on this machine.
func (p Policy) Status() Status {
	s := Status{Mode: p.Mode, Network: p.Network}
	if p.Mode == Off || p.Mode == "" {
		s.Why = i18n.T("sandbox.why.off")
		return s
	}
	abi := abiOnce()
	if abi < 1 {
		s.Why = i18n.T("sandbox.why.no_landlock")
		return s
	}
	s.Enforced = true
	s.How = fmt.Sprintf("Landlock ABI %d, seccomp", abi)
	if setsidPath() == "" {
		s.Gaps = append(s.Gaps, i18n.T("sandbox.gap.session"))
	}
	for _, g := range []struct {
		below int
		key   string
	}{{2, "sandbox.gap.refer"}, {3, "sandbox.gap.truncate"}, {6, "sandbox.gap.signals"}} {
		if abi < g.below {
			s.Gaps = append(s.Gaps, i18n.T(g.key))
		}
	}
	return s
}

// setsidPath is util-linux's setsid, which each confined command is
// started through so that its own session is made after it execs: the
// session calls go to the watcher, and Go starts a child with vfork, so a
// call the child made before exec would wait on the watcher while the
// thread that forked it, which the garbage collector must stop, waited on
// the child. "" when the system has none: commands then make their session
// before exec and a process may leave it (Status says so).
var setsidPath = sync.OnceValue(func() string {
	p, err := exec.LookPath("setsid")
	if err != nil {
		return ""
	}
	return p
})

// guardHermes makes Hermes's own memory and environment (its API keys) out
// of reach of the commands it starts, in any mode: a process that is not
// dumpable can be read through /proc only with CAP_SYS_PTRACE, which no
// command has (confined ones drop every capability). Landlock alone does
// not do it: it lets a command reach the Hermes threads in its own domain,
// and Go may lend Hermes's main thread, whose task /proc/PID/ names, to the
// goroutine that confines a command, then park it for good (seen: one
// command in 100 opened /proc/PID/mem). It also keeps Hermes out of core
// dumps. execve makes each command dumpable again.
var guardHermes = sync.OnceFunc(func() {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) // it cannot fail with 0
})

// confine starts cmd on a thread of its own that first takes on the
// sandbox: no new privileges, no capabilities, the Landlock ruleset of p
// and the seccomp filter. The command inherits them from that thread; the
// thread is never given back to the Go runtime, which ends it, so Hermes
// itself stays unconfined. This costs no new Hermes process per command.
func confine(cmd *exec.Cmd, p Policy, tmp, cache string) (*watcher, error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	ruleset, err := rulesetFD(p, tmp, cache)
	if err != nil {
		return nil, err
	}
	defer unix.Close(ruleset)
	pinned := setsidPath() != ""
	if pinned {
		cmd.SysProcAttr.Setsid = false
		cmd.Args = append([]string{"setsid", cmd.Path}, cmd.Args[1:]...)
		cmd.Path = setsidPath()
	}
	filter := program(p.Network, pinned)
	type started struct {
		w   *watcher
		err error
	}
	done := make(chan started, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		listener, err := restrictThread(ruleset, filter)
		if err != nil {
			done <- started{err: err}
			return
		}
		w := watch(listener)
		if err := cmd.Start(); err != nil {
			w.stop()
			done <- started{err: err}
			return
		}
		done <- started{w: w}
	}()
	s := <-done
	return s.w, s.err
}

// rulesetFD builds the Landlock ruleset of p's grants, hidden paths carved
// out, with TCP refused when p has no network and signals and abstract
// sockets kept within the sandbox.
func rulesetFD(p Policy, tmp, cache string) (int, error) {
	cfg := landlock.Config{HandledAccessFS: handledFS, Scoped: ll.ScopeAbstractUnixSocket | ll.ScopeSignal}
	if !p.Network {
		// Landlock does not see Multipath TCP nor UDP: the seccomp filter
		// refuses sockets altogether; this is a second line.
		cfg.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	var rules []landlock.Rule
	hidden := p.HiddenPaths()
	for _, r := range carve(p.grants(tmp, cache, hidden), hidden, p.Isolated) {
		var access landlock.AccessFSSet
		switch {
		case r.list:
			access = ll.AccessFSReadDir
		case r.dir && r.write:
			access = writeDir
		case r.dir:
			access = readDir
		case r.write:
			access = writeFile
		default:
			access = readFile
		}
		if isDevice(r.path) {
			access |= ll.AccessFSIoctlDev
		}
		// An entry removed since carve saw it needs no rule.
		rules = append(rules, landlock.PathAccess(access, r.path).IgnoreIfMissing())
	}
	fd, _, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return -1, fmt.Errorf("build the sandbox's Landlock rules: %w", err)
	}
	if fd < 0 {
		return -1, fmt.Errorf("build the sandbox's Landlock rules: %s", i18n.In(i18n.EN, "sandbox.why.no_landlock"))
	}
	return fd, nil
}

// restrictThread confines the calling thread, which must be locked to its
// goroutine: everything here applies to this thread alone and to the
// processes it starts. It returns the seccomp filter's listener.
func restrictThread(ruleset int, filter []unix.SockFilter) (listener int, err error) {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return -1, fmt.Errorf("set no_new_privs: %w", err)
	}
	dropCapabilities()
	if err := ll.LandlockRestrictSelf(ruleset, 0); err != nil {
		return -1, fmt.Errorf("enforce the Landlock rules: %w", err)
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return -1, fmt.Errorf("install the seccomp filter: %w", errno)
	}
	return int(fd), nil
}

// dropCapabilities leaves the thread with none, bounding set included, so
// that a command run as root gains none at exec: with them, root reads
// other processes' environments through Landlock. Without CAP_SETPCAP
// (any user but root) the bounding set cannot shrink, nor need it, as no
// new privileges can be gained.
func dropCapabilities() {
	// It fails past the last capability, or at once without CAP_SETPCAP.
	for c := 0; unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0) == nil; c++ {
	}
	// Both only lower what the thread has, and fail only where it has
	// nothing to give up (an old kernel without ambient capabilities).
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	_ = unix.Capset(&hdr, &data[0])
}
