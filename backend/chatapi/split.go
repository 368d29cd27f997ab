package chatapi

import (
	"strings"
	"unicode/utf8"
)

// Split cuts text into parts of at most limit bytes, at a line break where
// one falls in the second half of a part, else at a space, else between two
// characters, so no character is ever cut in two.
func Split(text string, limit int) []string {
	var parts []string
	for len(text) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		if cut == 0 { // a limit smaller than one character
			_, cut = utf8.DecodeRuneInString(text)
		}
		if i := strings.LastIndexByte(text[:cut], '\n'); i >= cut/2 {
			cut = i + 1
		} else if i := strings.LastIndexByte(text[:cut], ' '); i >= cut/2 {
			cut = i + 1
		}
		parts = append(parts, text[:cut])
		text = text[cut:]
	}
	if text != "" || len(parts) == 0 {
		parts = append(parts, text)
	}
	return parts
}
