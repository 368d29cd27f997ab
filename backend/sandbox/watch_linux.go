//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// struct seccomp_notif and struct seccomp_notif_resp.
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

type seccompResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// maxDenials bounds what one command's record keeps.
const maxDenials = 32

// watcher answers the calls the seccomp filter hands to it, on a goroutine
// of Hermes's (unconfined) threads, and records what it refused.
type watcher struct {
	listener int
	wake     [2]int // a pipe: closing its write end ends the loop
	done     chan struct{}
	once     sync.Once

	mu      sync.Mutex
	leader  bool // the command's own setsid has run
	denials []Denial
}

func watch(listener int) *watcher {
	w := &watcher{listener: listener, done: make(chan struct{})}
	if err := unix.Pipe2(w.wake[:], unix.O_CLOEXEC); err != nil {
		w.wake = [2]int{-1, -1}
	}
	go w.loop()
	return w
}

func (w *watcher) loop() {
	defer close(w.done)
	defer unix.Close(w.listener)
	fds := []unix.PollFd{{Fd: int32(w.listener), Events: unix.POLLIN}, {Fd: int32(w.wake[0]), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if fds[1].Revents != 0 || fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 && fds[0].Revents&unix.POLLIN == 0 {
			return // stopped, or no process uses the filter any more
		}
		if fds[0].Revents&unix.POLLIN != 0 {
			w.answer()
		}
	}
}

// answer takes one call off the listener and answers it.
func (w *watcher) answer() {
	var n seccompNotif
	if err := ioctl(w.listener, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&n)); err != nil {
		return // the caller died meanwhile
	}
	resp := seccompResp{ID: n.ID}
	nr := uintptr(n.Nr)
	if _, session := sessionCalls[nr]; session {
		w.mu.Lock()
		first := !w.leader
		w.leader = true
		w.mu.Unlock()
		switch {
		case first:
			resp.Flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		case nr == unix.SYS_SETSID:
			resp.Val = int64(n.Pid) // what a new session's id would be
		}
	} else {
		w.record(n)
		resp.Error = -int32(unix.EPERM)
	}
	// It fails only for a process killed while it waited, which needs no answer.
	_ = ioctl(w.listener, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
}

func (w *watcher) record(n seccompNotif) {
	d := Denial{Kind: DenialCall, By: comm(n.Pid)}
	nr := uintptr(n.Nr)
	switch nr {
	case unix.SYS_SOCKET:
		d.Kind, d.What = DenialNetwork, "socket("+family(n.Args[0])+")"
	case unix.SYS_CLONE:
		d.What = "clone(new namespaces)"
	case unix.SYS_IOCTL:
		d.What = "ioctl(TIOCSTI)"
		if uint32(n.Args[1]) == unix.TIOCLINUX {
			d.What = "ioctl(TIOCLINUX)"
		}
	default:
		d.What = refused[nr] + "()"
		if refused[nr] == "" {
			d.What = "syscall " + strconv.Itoa(int(n.Nr))
		}
	}
	// The id is still valid only while the caller waits in the call, so
	// the name read above is the caller's.
	if ioctl(w.listener, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&n.ID)) != nil {
		d.By = ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, old := range w.denials {
		if old == d {
			return
		}
	}
	if len(w.denials) < maxDenials {
		w.denials = append(w.denials, d)
	}
}

// stop ends the loop and closes the listener: a process still in the
// sandbox then gets ENOSYS from the calls the filter hands over.
func (w *watcher) stop() {
	w.once.Do(func() {
		if w.wake[1] >= 0 {
			_ = unix.Close(w.wake[1])
		}
		<-w.done
		if w.wake[0] >= 0 {
			_ = unix.Close(w.wake[0])
		}
	})
}

func (w *watcher) recorded() []Denial {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Denial(nil), w.denials...)
}

func ioctl(fd int, req uint, arg unsafe.Pointer) error {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg))
	if errno != 0 {
		return errno
	}
	return nil
}

// comm is the name of the program a process runs.
func comm(pid uint32) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func family(f uint64) string {
	switch f {
	case unix.AF_INET:
		return "AF_INET"
	case unix.AF_INET6:
		return "AF_INET6"
	case unix.AF_UNIX:
		return "AF_UNIX"
	case unix.AF_NETLINK:
		return "AF_NETLINK"
	case unix.AF_PACKET:
		return "AF_PACKET"
	}
	return "family " + strconv.FormatUint(f, 10)
}
