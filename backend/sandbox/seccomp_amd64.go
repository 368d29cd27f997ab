//go:build linux

package sandbox

import "golang.org/x/sys/unix"

const auditArch = unix.AUDIT_ARCH_X86_64

// checkX32: the x32 ABI reaches the kernel with the same arch but numbers
// with this bit set, which the filter's numbers would not match.
const checkX32 = true

func init() {
	refused[unix.SYS_IOPL] = "iopl"
	refused[unix.SYS_IOPERM] = "ioperm"
}
