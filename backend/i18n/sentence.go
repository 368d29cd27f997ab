package i18n

import (
	"strings"
	"unicode/utf8"
)

// Texts from elsewhere (a person's reason, a server's error, a model's
// verdict) are set into messages as a sentence or as part of one; these
// keep their punctuation from doubling: "Not now." never becomes "Not
// now.." nor "(Not now.)."

// Sentence is s ended as a sentence: s with a full stop, unless it ends
// with a mark that ends a sentence already (. 。 ! ！ ? ？ …). Text that
// follows it goes after a space. An empty s stays empty.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	switch r, _ := utf8.DecodeLastRuneInString(s); r {
	case '.', '。', '!', '！', '?', '？', '…':
		return s
	}
	return s + "."
}

// Clause is s set within a sentence (in parentheses, before a colon): s
// without the full stop (. or 。) that ends it. An ellipsis, a question or
// an exclamation keeps its mark.
func Clause(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "..."):
	case strings.HasSuffix(s, "."), strings.HasSuffix(s, "。"):
		_, n := utf8.DecodeLastRuneInString(s)
		s = strings.TrimSpace(s[:len(s)-n])
	}
	return s
}

// Then joins a text and the sentence that follows it: "Not now." then
// "Do not retry it." is "Not now. Do not retry it.", "不行。" then
// "Do not retry it." is "不行。 Do not retry it.".
func Then(s, next string) string {
	s = Sentence(s)
	if s == "" {
		return next
	}
	return s + " " + next
}
