package homelock

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code of a process that has not exited.
const stillActive = 259

// processAlive reports whether a process with pid exists; one that may not
// be opened (another user's) exists too.
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h) //nolint:errcheck // a handle only read from
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
