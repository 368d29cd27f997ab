// Package contextmgr builds each request's context under a token budget and
// accounts for it layer by layer.
package contextmgr

import (
	"unicode"
	"unicode/utf8"

	"hermes/backend/llm"
)

// messageOverhead is what the chat format adds around each message's content.
const messageOverhead = 4

// Byte classes of ASCII text, as a BPE pre-tokeniser splits it.
const (
	classMark = iota // punctuation and symbols
	classLower
	classUpper
	classDigit
	classSpace
	classNewline
)

var (
	asciiClass [utf8.RuneSelf]uint8
	asciiVowel [utf8.RuneSelf]bool
)

func init() {
	for c := range utf8.RuneSelf {
		switch {
		case c >= 'a' && c <= 'z':
			asciiClass[c] = classLower
		case c >= 'A' && c <= 'Z':
			asciiClass[c] = classUpper
		case c >= '0' && c <= '9':
			asciiClass[c] = classDigit
		case c == ' ' || c == '\t':
			asciiClass[c] = classSpace
		case c == '\n' || c == '\r':
			asciiClass[c] = classNewline
		}
	}
	for _, c := range "aeiouyAEIOUY" {
		asciiVowel[c] = true
	}
}

// Costs in tenths of a token, fitted to cl100k_base on testdata/tokens (see
// TestEstimate_CloseToBPE for the tolerance).
const (
	costWord    = 10 // a word of up to wordLen letters, with the space before it
	wordLen     = 7  // longer words cost a token more for each wordLen letters
	costRare    = 5  // a letter of a vowel-less run ("xkcdq"): BPE splits it into pairs
	costRepeat  = 1  // a letter or mark that repeats the one before ("xxxx", "----")
	costDigits  = 10 // up to three digits
	costMark    = 8  // punctuation; one before a word joins it
	costSpaces  = 1  // each space after the first
	costNewline = 10 // a line break with its indentation
	costCJK     = 10 // a Han, kana or Hangul character
	costOther   = 10 // any other non-ASCII character
	costBase64  = 75 // tenths of a token per ten characters of a random run
	costHex     = 60 // the same, for hexadecimal digits
	randomLen   = 12 // a run this long that changes class often is random (see isChange)
)

// isChange reports whether a letter or digit of class k after one of class
// prev starts a new piece of a random string: lower to upper case, or
// between letters and digits. A random run has one every three or four
// characters (base64: 0.42 a character, hex: 0.47); words, even camelCase
// ones, fewer (0.2).
func isChange(prev, k uint8) bool {
	return k != prev && (k == classUpper && prev == classLower || k == classDigit || prev == classDigit)
}

// random reports whether a run of n letters and digits, with changes class
// changes and vowels among its letters, is a random string rather than
// words and numbers: it changes class often, or fairly often with few
// vowels (random letters have one in five, words two in five).
func random(n, letters, vowels, changes int) bool {
	return changes*10 >= n*3 || changes*5 >= n && vowels*4 < letters
}

// estimator is the state of one Estimate scan. A run is a stretch of
// letters and digits; a piece is its part a BPE pre-tokeniser keeps
// together: a digit group or letters up to a lower-to-upper change.
type estimator struct {
	tenths                     int
	letters, vowels, digits    int // the current piece
	repeats                    int // letters of the piece that repeat the one before
	runLen, changes, runTenths int // the current run
	runLetters, runVowels      int
	runHex                     bool
}

func (e *estimator) endPiece() {
	switch {
	case e.letters == 0:
	case e.repeats*2 > e.letters:
		e.runTenths += costWord + e.letters*costRepeat
	case e.letters > 3 && e.vowels*5 < e.letters:
		e.runTenths += e.letters * costRare
	case e.letters <= wordLen:
		e.runTenths += costWord
	default:
		e.runTenths += costWord + (e.letters-wordLen)*costWord/wordLen
	}
	e.runTenths += (e.digits + 2) / 3 * costDigits
	e.runLetters += e.letters
	e.runVowels += e.vowels
	e.letters, e.vowels, e.digits, e.repeats = 0, 0, 0, 0
}

// endRun adds the run's cost: by pieces for words and numbers, by length
// for base64, hashes and other random strings, which BPE vocabularies cut
// into pieces of one or two characters.
func (e *estimator) endRun() {
	if e.runLen == 0 {
		return
	}
	e.endPiece()
	switch {
	case e.runLen < randomLen || !random(e.runLen, e.runLetters, e.runVowels, e.changes):
		e.tenths += e.runTenths
	case e.runHex:
		e.tenths += e.runLen * costHex / 10
	default:
		e.tenths += e.runLen * costBase64 / 10
	}
	e.runLen, e.changes, e.runTenths, e.runHex = 0, 0, 0, true
	e.runLetters, e.runVowels = 0, 0
}

// Estimate is a fast token estimate of text, within 15% of what cl100k_base
// and o200k_base count on English, code, JSON, minified code, base64 and
// hashes (o200k counts Chinese a third lower). It follows their
// pre-tokeniser: words, digit groups of three, marks, line breaks, and one
// token per CJK character; a random run of letters and digits costs by its
// length. The Builder corrects it with the usage the provider reports.
func Estimate(text string) int {
	e := estimator{runHex: true}
	prev, last := uint8(classNewline), byte(0)
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			e.endRun()
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size
			if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
				e.tenths += costCJK
			} else {
				e.tenths += costOther
			}
			prev, last = classMark, 0
			continue
		}
		i++
		k := asciiClass[c]
		switch k {
		case classLower, classUpper, classDigit:
			if e.runLen == 0 && prev == classMark && k != classDigit {
				e.tenths -= costMark
			}
			if e.runLen > 0 && isChange(prev, k) {
				e.changes++
				e.endPiece()
			}
			e.runLen++
			switch k {
			case classDigit:
				e.digits++
			default:
				e.letters++
				if c == last {
					e.repeats++
				}
				if asciiVowel[c] {
					e.vowels++
				}
				if c|0x20 > 'f' {
					e.runHex = false
				}
			}
		case classMark:
			e.endRun()
			if c == last {
				e.tenths += costRepeat
			} else {
				e.tenths += costMark
			}
		case classSpace:
			e.endRun()
			if prev == classSpace {
				e.tenths += costSpaces
			}
		case classNewline:
			e.endRun()
			if prev != classNewline {
				e.tenths += costNewline
			}
		}
		prev, last = k, c
	}
	e.endRun()
	return (e.tenths + 9) / 10
}

// EstimateMessage estimates one message, tool calls included.
func EstimateMessage(m llm.Message) int {
	n := messageOverhead + Estimate(m.Content) + Estimate(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += messageOverhead + Estimate(c.Name) + Estimate(c.Arguments)
	}
	return n
}

// EstimateTools estimates the tool schemas sent with every request.
func EstimateTools(defs []llm.ToolDef) int {
	n := 0
	for _, d := range defs {
		n += messageOverhead + Estimate(d.Name) + Estimate(d.Description) + Estimate(string(d.Parameters))
	}
	return n
}
