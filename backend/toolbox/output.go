package toolbox

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// headTail keeps the first and last bytes of a stream up to limit in all,
// so a command that prints a million lines costs limit bytes of memory and
// its result still shows how the output began and how it ended.
type headTail struct {
	limit int
	head  []byte
	tail  []byte // a ring once full
	start int    // where the ring's oldest byte is
	total int
}

func newHeadTail(limit int) *headTail { return &headTail{limit: limit} }

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += n
	headCap := h.limit / 2
	if room := headCap - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	tailCap := h.limit - headCap
	for len(p) > 0 && tailCap > 0 {
		if len(h.tail) < tailCap {
			k := min(tailCap-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := min(tailCap-h.start, len(p))
		copy(h.tail[h.start:], p[:k])
		h.start = (h.start + k) % tailCap
		p = p[k:]
	}
	return n, nil
}

// Cut reports whether bytes were dropped from the middle.
func (h *headTail) Cut() bool { return h.total > h.limit }

// String is the output kept, with a note where the middle was cut. Partial
// UTF-8 characters at the cut are dropped.
func (h *headTail) String() string {
	tail := append(append([]byte(nil), h.tail[h.start:]...), h.tail[:h.start]...)
	if !h.Cut() {
		return string(h.head) + string(tail)
	}
	head := h.head[:validPrefix(h.head)]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	var b strings.Builder
	b.Write(head)
	fmt.Fprintf(&b, "\n[... %d bytes of output cut here ...]\n", h.total-len(head)-len(tail))
	b.Write(tail)
	return b.String()
}
