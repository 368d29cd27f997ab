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

// Estimate is a fast token estimate of text: about four ASCII characters per
// token, one token per CJK character (BPE vocabularies rarely merge them) and
// half a token for other non-ASCII characters. The Builder corrects it with
// the usage the provider reports.
func Estimate(text string) int {
	ascii, halves := 0, 0
	for i := 0; i < len(text); {
		// Eight ASCII bytes at a time: tool results are mostly ASCII, and
		// this is most of the cost of laying out a long request.
		if i+8 <= len(text) && (uint64(text[i])|uint64(text[i+1])<<8|uint64(text[i+2])<<16|uint64(text[i+3])<<24|
			uint64(text[i+4])<<32|uint64(text[i+5])<<40|uint64(text[i+6])<<48|uint64(text[i+7])<<56)&0x8080808080808080 == 0 {
			ascii += 8
			i += 8
			continue
		}
		c := text[i]
		if c < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
			halves += 2
		} else {
			halves++
		}
	}
	return (ascii+3)/4 + (halves+1)/2
}

// EstimateMessage estimates one message, tool calls included.
func EstimateMessage(m llm.Message) int {
	n := messageOverhead + Estimate(m.Content)
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
