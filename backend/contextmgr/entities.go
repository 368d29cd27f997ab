package contextmgr

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// entityPatterns find the values a summary must not lose: URLs, paths and
// file names, dates and times, and numbers worth keeping. IDs (words that mix
// letters and digits) are found by idWord, which regexp cannot say simply.
var entityPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
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
})

// uuidPattern finds UUIDs, random values whose parts are too short to be
// told from words by randomSpans.
var uuidPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`)
})

// randomMin is the fewest letters and digits of a random value: shorter
// mixed runs ("a1b2c3d4", "INV2024") are kept as IDs.
const randomMin = 16

// randomSpans returns where text holds random values: UUIDs, and runs of
// base64 characters with at least randomMin letters and digits that change
// class as random strings do (hex digests, base64, API tokens), but not as
// words, paths or numbers do. Nothing finds meaning in such a value unless
// something named it.
func randomSpans(text string) [][2]int {
	spans := uuidPattern().FindAllStringIndex(text, -1)
	out := make([][2]int, len(spans))
	for i, s := range spans {
		out[i] = [2]int{s[0], s[1]}
	}
	start, n, letters, vowels, changes, prev := -1, 0, 0, 0, 0, uint8(classMark)
	end := func(i int) {
		if start >= 0 && n >= randomMin && random(n, letters, vowels, changes) {
			out = append(out, [2]int{start, i})
		}
		start, n, letters, vowels, changes, prev = -1, 0, 0, 0, 0, classMark
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '+' || c == '/' || c == '=' {
			if start < 0 {
				start = i
			}
			continue
		}
		if c >= utf8.RuneSelf {
			end(i)
			continue
		}
		k := asciiClass[c]
		if k != classLower && k != classUpper && k != classDigit {
			end(i)
			continue
		}
		if start < 0 {
			start = i
		}
		if n > 0 && isChange(prev, k) {
			changes++
		}
		if k != classDigit {
			letters++
			if asciiVowel[c] {
				vowels++
			}
		}
		n++
		prev = k
	}
	end(len(text))
	return out
}

// Random reports whether v is or holds a random value.
func Random(v string) bool { return len(randomSpans(v)) > 0 }

// RandomValues returns the random values of text, each once.
func RandomValues(text string) []string {
	var out []string
	for _, s := range randomSpans(text) {
		out = append(out, text[s[0]:s[1]])
	}
	return dedupe(out)
}

// trailing punctuation that ends a sentence rather than a value.
const trailing = ".,;:!?)]}'\""

// Entities returns the numbers, dates, IDs, paths and URLs in text, each
// once, in order of first appearance. A value inside a longer one (the date
// in a path) is not listed again. Random values (see randomSpans) are not
// entities, nor are the pieces of them that would look like IDs or paths;
// a URL is kept whole even when it holds one.
func Entities(text string) []string {
	urls := entityPatterns()[0].FindAllStringIndex(text, -1)
	masked := []byte(text)
	for _, r := range randomSpans(text) {
		inURL := slices.ContainsFunc(urls, func(u []int) bool { return r[0] < u[1] && u[0] < r[1] })
		if !inURL {
			for i := r[0]; i < r[1]; i++ {
				masked[i] = ' '
			}
		}
	}
	return entities(text, string(masked))
}

// entities finds the values of text in masked, a copy of it with the
// random values blanked out.
func entities(text, masked string) []string {
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
	for i, re := range entityPatterns() {
		in := masked
		if i == 0 {
			in = text // URLs first, whole
		}
		for _, m := range re.FindAllStringIndex(in, -1) {
			add(m[0], m[1])
		}
	}
	for start := 0; start < len(masked); {
		end := start
		for end < len(masked) && isIDByte(masked[end]) {
			end++
		}
		if end > start && idWord(masked[start:end]) {
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

// Select chooses, from candidates, the values kept verbatim beside the
// summary, within budget tokens. Those the focus names (the task, the plan,
// pinned facts, the model's own tool arguments) come first, then those
// kept before, then the rest in order; a random value the focus does not
// name is never kept, as nothing will ask for it.
func Select(candidates []string, focus string, kept []string, budget int) []string {
	var named, old, rest []string
	for _, v := range candidates {
		switch {
		case strings.Contains(focus, v):
			named = append(named, v)
		case Random(v):
		case slices.Contains(kept, v):
			old = append(old, v)
		default:
			rest = append(rest, v)
		}
	}
	var out []string
	used := 0
	for _, list := range [][]string{named, old, rest} {
		for _, v := range list {
			if cost := Estimate(v) + 1; used+cost <= budget {
				out = append(out, v)
				used += cost
			}
		}
	}
	return out
}
