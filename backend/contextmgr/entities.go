package contextmgr

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// entityPatterns find the values a summary must not lose: URLs, paths and
// file names, dates and times, and numbers worth keeping. IDs (words that mix
// letters and digits) are found by idWord, which regexp cannot say simply.
var entityPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:https?|ftp|file)://[^\s<>"'()\[\]{}]+`),
	// Paths with at least one slash, Unix or Windows; then bare file names.
	regexp.MustCompile(`(?:[A-Za-z]:\\|~/|\.{1,2}/|/)?(?:[\w.\-]+[/\\])+[\w.\-]+`),
	regexp.MustCompile(`\b[\w\-]{2,}\.[a-z][a-z0-9]{0,4}\b`),
	regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b`),
	regexp.MustCompile(`\b\d{1,2}/\d{1,2}/\d{2,4}\b`),
	regexp.MustCompile(`\d{4}年\d{1,2}月(?:\d{1,2}日)?`),
	regexp.MustCompile(`\b\d{1,2}:\d{2}(?::\d{2})?\b`),
	// Amounts, measurements and counts of three digits or more; small
	// numbers (list positions, line counts) would only crowd the list.
	regexp.MustCompile(`[$€£¥]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|[$€£¥]?\d+\.\d+%?|[$€£¥]?\d{3,}%?|\d+%`),
}

// trailing punctuation that ends a sentence rather than a value.
const trailing = ".,;:!?)]}'\""

// Entities returns the numbers, dates, IDs, paths and URLs in text, each
// once, in order of first appearance. A value inside a longer one (the date
// in a path) is not listed again.
func Entities(text string) []string {
	type span struct {
		start, end int
	}
	var spans []span
	add := func(start, end int) {
		for end > start && strings.ContainsRune(trailing, rune(text[end-1])) {
			end--
		}
		if end > start {
			spans = append(spans, span{start, end})
		}
	}
	for _, re := range entityPatterns {
		for _, m := range re.FindAllStringIndex(text, -1) {
			add(m[0], m[1])
		}
	}
	for start := 0; start < len(text); {
		end := start
		for end < len(text) && isIDByte(text[end]) {
			end++
		}
		if end > start && idWord(text[start:end]) {
			add(start, end)
		}
		start = end + 1
	}
	// From left to right, the longest at each place; a value inside one
	// already taken (the date in a path) is not listed again.
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var kept []span
	for _, s := range spans {
		if len(kept) > 0 && s.start < kept[len(kept)-1].end {
			continue
		}
		kept = append(kept, s)
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range kept {
		v := text[s.start:s.end]
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func isIDByte(c byte) bool {
	return c == '-' || c == '_' || c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)))
}

// idWord reports whether w looks like an identifier: at least four
// characters mixing letters and digits ("INV-2024-0042", "a1b2c3d", "v2").
func idWord(w string) bool {
	w = strings.Trim(w, "-_")
	if len(w) < 4 {
		return false
	}
	letters, digits := false, false
	for i := 0; i < len(w); i++ {
		c := rune(w[i])
		letters = letters || unicode.IsLetter(c)
		digits = digits || unicode.IsDigit(c)
	}
	return letters && digits
}

// Missing returns the entities of want that text does not contain.
func Missing(want []string, text string) []string {
	var out []string
	for _, e := range want {
		if !strings.Contains(text, e) {
			out = append(out, e)
		}
	}
	return out
}
