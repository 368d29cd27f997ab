package vault

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// Encoding is how a note's text is stored on disk; a note is written back
// in the encoding it was read in.
type Encoding string

// The encodings a note is read in and written back in.
const (
	UTF8    Encoding = "utf-8"
	UTF8BOM Encoding = "utf-8-bom"
	UTF16LE Encoding = "utf-16le" // with a byte-order mark
	UTF16BE Encoding = "utf-16be" // with a byte-order mark
	// GB18030 covers GBK, its subset: Chinese notes saved by older Windows
	// editors.
	GB18030 Encoding = "gb18030"
	// Unknown is text in none of the above; it is read with U+FFFD for what
	// cannot be decoded, and never written.
	Unknown Encoding = "unknown"
)

// Text is a note's content as Hermes works with it: "\n" line endings, no
// byte-order mark, and how to put it back on disk.
type Text struct {
	Text     string
	Encoding Encoding
	// CRLF says the file ends its lines with "\r\n".
	CRLF bool
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// Decode detects the encoding of b and returns its text.
func Decode(b []byte) Text {
	t := decodeRaw(b)
	crlf := strings.Count(t.Text, "\r\n")
	t.CRLF = crlf > 0 && crlf*2 >= strings.Count(t.Text, "\n")
	t.Text = strings.ReplaceAll(t.Text, "\r\n", "\n")
	return t
}

// decodeRaw detects the encoding of b and returns its text with its line
// endings as they are, so that an edit of some lines changes no other byte
// of a note whose lines end both ways.
func decodeRaw(b []byte) Text {
	var s string
	enc := UTF8
	switch {
	case bytes.HasPrefix(b, bomUTF8):
		s, enc = string(b[len(bomUTF8):]), UTF8BOM
	case bytes.HasPrefix(b, bomUTF16LE):
		s, enc = decodeWith(unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), b), UTF16LE
	case bytes.HasPrefix(b, bomUTF16BE):
		s, enc = decodeWith(unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), b), UTF16BE
	case utf8.Valid(b):
		s = string(b)
	default:
		d, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b)
		if err == nil && !bytes.ContainsRune(d, utf8.RuneError) {
			s, enc = string(d), GB18030
		} else {
			s, enc = strings.ToValidUTF8(string(b), "\uFFFD"), Unknown
		}
	}
	return Text{Text: s, Encoding: enc}
}

func decodeWith(e encoding.Encoding, b []byte) string {
	d, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(d)
}

// Encode returns t as it is stored on disk: its line endings, its encoding
// and its byte-order mark. It fails with ErrUnknownEncoding for text whose
// encoding was not recognised.
func (t Text) Encode() ([]byte, error) {
	s := t.Text
	if t.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	switch t.Encoding {
	case UTF8:
		return []byte(s), nil
	case UTF8BOM:
		return append(bytes.Clone(bomUTF8), s...), nil
	case UTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case UTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case GB18030:
		return simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(s))
	}
	return nil, ErrUnknownEncoding
}
