package search

import (
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes drops "words" that are really data (base64, hashes, long
// URLs without separators): they never match a query and swell the index.
const maxTokenBytes = 64

// Tokenize splits text into the terms the index holds: lower-cased runs of
// letters and digits, and for Chinese, Japanese and Korean text, which has
// no spaces, overlapping pairs of characters (bigrams; a lone character is
// a term of its own). The same function splits documents and queries, so a
// query matches any text holding the same words or character pairs.
func Tokenize(text string) []string {
	var out []string
	tokens(text, make([]byte, 0, 64), func(b []byte) { out = append(out, string(b)) })
	return out
}

// tokens calls emit with each term of text. The slice passed to emit is
// reused: emit must copy it to keep it.
func tokens(text string, buf []byte, emit func([]byte)) {
	word := buf[:0]
	var prev rune // the previous character of a CJK run
	cjkRun := 0   // characters in the current CJK run
	flushWord := func() {
		if len(word) > 0 && len(word) <= maxTokenBytes {
			emit(singular(word))
		}
		word = word[:0]
	}
	var pair [2 * utf8.UTFMax]byte
	flushCJK := func() {
		if cjkRun == 1 {
			n := utf8.EncodeRune(pair[:], prev)
			emit(pair[:n])
		}
		cjkRun = 0
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flushWord()
			if cjkRun > 0 {
				n := utf8.EncodeRune(pair[:], prev)
				n += utf8.EncodeRune(pair[n:], r)
				emit(pair[:n])
			}
			prev = r
			cjkRun++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			flushCJK()
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				word = append(word, byte(r))
			} else {
				word = utf8.AppendRune(word, unicode.ToLower(r))
			}
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
}

// singular folds the commonest English plural ("notes" → "note"), so that
// a query in the singular finds the plural and back. It leaves short words
// and "-ss" words ("class") alone; a word it mangles ("status" → "statu") is
// mangled the same way in documents and queries.
func singular(w []byte) []byte {
	if n := len(w); n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] < utf8.RuneSelf {
		return w[:n-1]
	}
	return w
}

// isCJK reports whether r belongs to a script written without spaces
// between words.
func isCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
