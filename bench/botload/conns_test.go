package botload

import (
	"bufio"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// tcpTimeWait is the state number of TIME_WAIT in /proc/net/tcp.
const tcpTimeWait = 6

// connectionsTo counts the TCP connections made to the server at base (a
// URL on this machine) that the kernel still knows: those open or closing
// on the client's side, and those the server closed, which wait in
// TIME_WAIT on its side for a minute. So a count taken within a minute of
// a load is about every connection the load opened. ok is false where
// there is no /proc.
func connectionsTo(base string) (n int, ok bool) {
	u, err := url.Parse(base)
	if err != nil {
		return 0, false
	}
	port, err := strconv.ParseUint(u.Port(), 10, 16)
	if err != nil {
		return 0, false
	}
	return countSockets(func(local, remote, state uint64) bool {
		return remote == port || local == port && state == tcpTimeWait
	})
}

// timeWait counts the connections of this machine in TIME_WAIT.
func timeWait() (int, bool) {
	return countSockets(func(_, _, state uint64) bool { return state == tcpTimeWait })
}

// countSockets counts the TCP sockets that match, by their local and
// remote ports and their state.
func countSockets(match func(local, remote, state uint64) bool) (n int, ok bool) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		ok = true
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		for sc.Scan() {
			// sl local_address rem_address st ...; addresses are HEX_IP:HEX_PORT.
			fields := strings.Fields(sc.Text())
			if len(fields) < 4 {
				continue
			}
			state, _ := strconv.ParseUint(fields[3], 16, 8)
			if match(portOf(fields[1]), portOf(fields[2]), state) {
				n++
			}
		}
		f.Close()
	}
	return n, ok
}

func portOf(addr string) uint64 {
	_, hex, _ := strings.Cut(addr, ":")
	p, _ := strconv.ParseUint(hex, 16, 16)
	return p
}
