//go:build linux && (amd64 || arm64)

package sandbox

import (
	"maps"
	"slices"

	"golang.org/x/sys/unix"
)

// The offsets of struct seccomp_data's fields that the filter reads.
const (
	offNr         = 0
	offArch       = 4
	offArg0Low    = 16
	offArg1Low    = 24
	x32SyscallBit = 0x40000000
)

// namespaceFlags are the clone flags that make a namespace.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// refused are the system calls a sandboxed process never needs and that
// could take it out of the sandbox or into another process: namespaces
// (unshare, setns), mounts, tracing and reading other processes' memory,
// the kernel's keyrings, BPF and perf, io_uring (whose operations the
// filter cannot see), modules, chroot and the like. Each is reported to
// the watcher, which records it and answers EPERM.
var refused = map[uintptr]string{
	unix.SYS_UNSHARE: "unshare", unix.SYS_SETNS: "setns",
	unix.SYS_MOUNT: "mount", unix.SYS_UMOUNT2: "umount2", unix.SYS_PIVOT_ROOT: "pivot_root",
	unix.SYS_OPEN_TREE: "open_tree", unix.SYS_MOVE_MOUNT: "move_mount", unix.SYS_FSOPEN: "fsopen",
	unix.SYS_FSCONFIG: "fsconfig", unix.SYS_FSMOUNT: "fsmount", unix.SYS_FSPICK: "fspick",
	unix.SYS_MOUNT_SETATTR: "mount_setattr", unix.SYS_CHROOT: "chroot",
	unix.SYS_PTRACE: "ptrace", unix.SYS_PROCESS_VM_READV: "process_vm_readv",
	unix.SYS_PROCESS_VM_WRITEV: "process_vm_writev", unix.SYS_PIDFD_GETFD: "pidfd_getfd",
	unix.SYS_BPF: "bpf", unix.SYS_PERF_EVENT_OPEN: "perf_event_open", unix.SYS_USERFAULTFD: "userfaultfd",
	unix.SYS_KEYCTL: "keyctl", unix.SYS_ADD_KEY: "add_key", unix.SYS_REQUEST_KEY: "request_key",
	unix.SYS_IO_URING_SETUP: "io_uring_setup", unix.SYS_IO_URING_ENTER: "io_uring_enter",
	unix.SYS_IO_URING_REGISTER: "io_uring_register",
	unix.SYS_KEXEC_LOAD:        "kexec_load", unix.SYS_KEXEC_FILE_LOAD: "kexec_file_load",
	unix.SYS_INIT_MODULE: "init_module", unix.SYS_FINIT_MODULE: "finit_module",
	unix.SYS_DELETE_MODULE: "delete_module", unix.SYS_REBOOT: "reboot", unix.SYS_SWAPON: "swapon",
	unix.SYS_SWAPOFF: "swapoff", unix.SYS_ACCT: "acct", unix.SYS_QUOTACTL: "quotactl",
	unix.SYS_OPEN_BY_HANDLE_AT: "open_by_handle_at",
}

// sessionCalls are answered by the watcher: the first, the setsid that
// each command is started through, runs; every later one returns success and does
// nothing, so no process leaves the command's session and escapes the kill
// at its end (a daemon's double fork stays in it).
var sessionCalls = map[uintptr]string{unix.SYS_SETSID: "setsid", unix.SYS_SETPGID: "setpgid"}

// program is the seccomp filter of a sandbox: the session calls when
// pinned (see sessionCalls), refused calls and, without
// network, socket(2) of every family go to the watcher; clone with a
// namespace flag too; clone3, whose flags it cannot read, fails as if the
// kernel lacked it, and the C library falls back to clone; the ioctls that
// push input into a terminal go to the watcher.
func program(network, pinned bool) []unix.SockFilter {
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	notify := unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_USER_NOTIF}
	allow := unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW}
	prog := []unix.SockFilter{
		{Code: ld, K: offArch},
		{Code: jeq, K: auditArch, Jt: 1},
		{Code: ret, K: unix.SECCOMP_RET_KILL_PROCESS}, // another ABI's numbers mean other calls
		{Code: ld, K: offNr},
	}
	if checkX32 {
		prog = append(prog, unix.SockFilter{Code: jge, K: x32SyscallBit, Jf: 1},
			unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)})
	}
	// on adds a block run when the call is nr; the block must return.
	on := func(nr uintptr, block ...unix.SockFilter) {
		prog = append(prog, unix.SockFilter{Code: jeq, K: uint32(nr), Jf: uint8(len(block))})
		prog = append(prog, block...)
	}
	for _, nr := range slices.Sorted(maps.Keys(refused)) {
		on(nr, notify)
	}
	if pinned {
		for _, nr := range slices.Sorted(maps.Keys(sessionCalls)) {
			on(nr, notify)
		}
	}
	if !network {
		// Unix and netlink sockets reach no network, but the D-Bus, Docker
		// and X11 servers behind them could act for the command: refused,
		// quietly, since libc tries them (nscd) at every user lookup.
		quiet := unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)}
		on(unix.SYS_SOCKET,
			unix.SockFilter{Code: ld, K: offArg0Low},
			unix.SockFilter{Code: jeq, K: unix.AF_UNIX, Jt: 1},
			unix.SockFilter{Code: jeq, K: unix.AF_NETLINK, Jf: 1},
			quiet, notify)
	}
	on(unix.SYS_CLONE,
		unix.SockFilter{Code: ld, K: offArg0Low},
		unix.SockFilter{Code: jset, K: namespaceFlags, Jf: 1},
		notify, allow)
	on(unix.SYS_CLONE3, unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
	// The kernel reads an ioctl's request as 32 bits: compare those only.
	on(unix.SYS_IOCTL,
		unix.SockFilter{Code: ld, K: offArg1Low},
		unix.SockFilter{Code: jeq, K: unix.TIOCSTI, Jt: 1},
		unix.SockFilter{Code: jeq, K: unix.TIOCLINUX, Jf: 1},
		notify, allow)
	return append(prog, allow)
}
