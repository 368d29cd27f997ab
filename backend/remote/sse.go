package remote

import (
	"bufio"
	"io"
	"strings"
)

// maxMessage bounds one Server-Sent Events message: a context.built event
// that carries a whole request can be large.
const maxMessage = 64 << 20

// message is one Server-Sent Events message.
type message struct {
	name string
	data []byte
}

// readSSE hands each message of r to got until r ends, got returns false,
// or a message is too long. Comments (heartbeats) are skipped.
func readSSE(r io.Reader, got func(message) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxMessage)
	var m message
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if m.name != "" || m.data != nil {
				if !got(m) {
					return nil
				}
			}
			m = message{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			m.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			if m.data != nil {
				m.data = append(m.data, '\n')
			}
			m.data = append(m.data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		}
	}
	return sc.Err()
}
