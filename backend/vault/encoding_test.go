package vault

import (
	"bytes"
	"testing"

	"golang.org/x/text/encoding/unicode"
)

func TestDecodeEncode_RoundTrip(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
		text string
		enc  Encoding
		crlf bool
	}{
		{"utf-8", []byte("héllo 你好\n"), "héllo 你好\n", UTF8, false},
		{"utf-8 crlf", []byte("a\r\nb\r\n"), "a\nb\n", UTF8, true},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, "x 你\n"...), "x 你\n", UTF8BOM, false},
		{"utf-16le", utf16(t, "日记\r\n第二行\r\n", unicode.LittleEndian), "日记\n第二行\n", UTF16LE, true},
		{"utf-16be", utf16(t, "big 大\n", unicode.BigEndian), "big 大\n", UTF16BE, false},
		{"gbk", gbk(t, "梯度下降\r\n优化\r\n"), "梯度下降\n优化\n", GB18030, true},
		{"empty", nil, "", UTF8, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(tt.raw)
			if got.Text != tt.text || got.Encoding != tt.enc || got.CRLF != tt.crlf {
				t.Fatalf("Decode = %+v, want %q %s crlf=%v", got, tt.text, tt.enc, tt.crlf)
			}
			back, err := got.Encode()
			if err != nil || !bytes.Equal(back, tt.raw) && len(tt.raw) > 0 {
				t.Errorf("Encode = %x, %v; want the original %x", back, err, tt.raw)
			}
		})
	}
}

func TestDecode_UnknownIsNeverWritten(t *testing.T) {
	got := Decode([]byte{0xFF, 0xFF, 0xFF, 0x41, 0x80})
	if got.Encoding != Unknown {
		t.Fatalf("encoding %s, want unknown", got.Encoding)
	}
	if _, err := got.Encode(); err != ErrUnknownEncoding {
		t.Errorf("Encode: %v, want ErrUnknownEncoding", err)
	}
}
