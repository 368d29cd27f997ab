package runlog

import "slices"

// Encoded text is often wrapped: base64 at 76 columns, PEM at 64, xxd -p at
// 60. A block is such text: lines of its alphabet joined by single line
// breaks, raw (\n, \r\n) or escaped as in a JSON string (\n, \r\n, with any
// number of backslashes when JSON is quoted in JSON). A blank line, or any
// other character, ends it.

// span is a part of a text to replace, [s, e).
type span struct{ s, e int }

var (
	base64Alphabet = alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_")
	hexAlphabet    = alphabet("0123456789abcdefABCDEF")
)

func alphabet(chars string) *[256]bool {
	var a [256]bool
	for i := range len(chars) {
		a[chars[i]] = true
	}
	return &a
}

// wrapWidths are the widths encoders wrap at: a block of one full line of
// one of them and a shorter last line is taken as wrapped.
var wrapWidths = []int{60, 64, 76}

// breakAt is the length of the line break that starts at i, 0 for none.
func breakAt(b []byte, i int) int {
	r := newlineAt(b, i, 'r', '\r')
	n := newlineAt(b, i+r, 'n', '\n')
	if n == 0 {
		return 0
	}
	return r + n
}

// newlineAt is the length of raw, or of esc escaped by backslashes, at i.
func newlineAt(b []byte, i int, esc, raw byte) int {
	if i < len(b) && b[i] == raw {
		return 1
	}
	k := i
	for k < len(b) && b[k] == '\\' {
		k++
	}
	if k > i && k < len(b) && b[k] == esc {
		return k + 1 - i
	}
	return 0
}

// breakBefore is the length of the line break that ends at i, 0 for none.
func breakBefore(b []byte, i int) int {
	n := newlineBefore(b, i, 'n', '\n')
	if n == 0 {
		return 0
	}
	return n + newlineBefore(b, i-n, 'r', '\r')
}

func newlineBefore(b []byte, i int, esc, raw byte) int {
	switch {
	case i > 0 && b[i-1] == raw:
		return 1
	case i > 1 && b[i-1] == esc && b[i-2] == '\\':
		k := i - 2
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		return i - k
	}
	return 0
}

// blockStart is where the block holding i starts.
func blockStart(b []byte, i int, alpha *[256]bool) int {
	for i > 0 {
		if n := breakBefore(b, i); n > 0 {
			if i-n > 0 && alpha[b[i-n-1]] {
				i -= n
				continue
			}
			return i
		}
		if !alpha[b[i-1]] {
			return i
		}
		i--
	}
	return i
}

// blockEnd is where the block holding the character before i ends.
func blockEnd(b []byte, i int, alpha *[256]bool) int {
	for i < len(b) {
		if n := breakAt(b, i); n > 0 {
			if i+n < len(b) && alpha[b[i+n]] {
				i += n
				continue
			}
			return i
		}
		if !alpha[b[i]] {
			return i
		}
		i++
	}
	return i
}

// lines are the lines of the block [s, e).
func lines(b []byte, s, e int, alpha *[256]bool) []span {
	var out []span
	for i := s; i < e; {
		j := i
		for j < e && alpha[b[j]] {
			j++
		}
		out = append(out, span{i, j})
		n := breakAt(b, j)
		if j >= e || n == 0 {
			break
		}
		i = j + n
	}
	return out
}

// block widens [s, e), a match of an encoded form, to the encoded text
// that holds it: the lines the match is on, the full lines before and
// after them (as long as the longest line beside the match), the shorter
// last line after full ones, and for base64 the padding. A line shorter
// than that width before the match, or after a line that is not full, is
// not taken: it is the text around the block ("done" on the next line).
func block(b []byte, s, e int, kind formKind) span {
	alpha := base64Alphabet
	if kind == hexForm {
		alpha = hexAlphabet
	}
	ls := lines(b, blockStart(b, s, alpha), blockEnd(b, e, alpha), alpha)
	first := slices.IndexFunc(ls, func(l span) bool { return l.e > s })
	last := slices.IndexFunc(ls, func(l span) bool { return l.e >= e })
	width := 0
	for _, l := range ls[max(first-1, 0):min(last+2, len(ls))] {
		width = max(width, l.e-l.s)
	}
	full := func(i int) bool { return ls[i].e-ls[i].s == width }
	for first > 0 && full(first-1) {
		first--
	}
	for last+1 < len(ls) && full(last) && (last > first || slices.Contains(wrapWidths, width)) {
		last++
	}
	out := span{ls[first].s, ls[last].e}
	for range 2 {
		if kind == base64Form && out.e < len(b) && b[out.e] == '=' {
			out.e++
		}
	}
	return out
}
