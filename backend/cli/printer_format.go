package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"golang.org/x/term"
)

// runeWidth is the number of terminal columns r takes: 2 for East Asian wide
// and fullwidth characters (CJK, Hangul, fullwidth forms, most emoji), 0 for
// combining marks and controls, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r < 0x20 || r == 0x7f || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case r < 0x1100:
		return 1
	case r <= 0x115f, // Hangul Jamo initials
		r >= 0x2e80 && r <= 0x303e, // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33ff, // kana, CJK compatibility
		r >= 0x3400 && r <= 0x4dbf, // CJK extension A
		r >= 0x4e00 && r <= 0x9fff, // CJK unified ideographs
		r >= 0xa000 && r <= 0xa4cf, // Yi
		r >= 0xac00 && r <= 0xd7a3, // Hangul syllables
		r >= 0xf900 && r <= 0xfaff, // CJK compatibility ideographs
		r >= 0xfe30 && r <= 0xfe4f, // CJK compatibility forms
		r >= 0xff00 && r <= 0xff60, // fullwidth forms
		r >= 0xffe0 && r <= 0xffe6,
		r >= 0x1f300 && r <= 0x1f64f, // emoji
		r >= 0x1f900 && r <= 0x1f9ff,
		r >= 0x20000 && r <= 0x3fffd: // CJK extensions B and beyond
		return 2
	}
	return 1
}

// width is the display width of s in terminal columns.
func width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// truncate cuts s to at most room columns, ending it with "…" when cut.
func truncate(s string, room int) string {
	if width(s) <= room {
		return s
	}
	if room <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		w := runeWidth(r)
		if used+w > room-1 {
			break
		}
		b.WriteRune(r)
		used += w
	}
	return b.String() + "…"
}

// padRight pads s with spaces to n columns.
func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-width(s)))
}

// oneLine folds runs of whitespace, newlines included, into single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// humanSize renders a byte count: "312 B", "1.2 KB", "3.4 MB".
func humanSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1024)) + " KB"
	default:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1024*1024))) + " MB"
	}
}

// humanDuration renders milliseconds: "35 ms", "1.2 s", "2m 05s", "1h 03m".
func humanDuration(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60_000:
		return trimZero(fmt.Sprintf("%.1f", float64(ms)/1000)) + " s"
	case ms < 3_600_000:
		return fmt.Sprintf("%dm %02ds", ms/60_000, ms%60_000/1000)
	default:
		return fmt.Sprintf("%dh %02dm", ms/3_600_000, ms%3_600_000/60_000)
	}
}

// humanTokens renders a token count: "950", "12.3k", "1.2M".
func humanTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 1_000_000:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1000)) + "k"
	default:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1_000_000)) + "M"
	}
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// style is an SGR parameter.
type style string

const (
	bold   style = "1"
	dim    style = "2"
	red    style = "31"
	green  style = "32"
	yellow style = "33"
	cyan   style = "36"
)

func (p *Printer) paint(s string, styles ...style) string { return paint(p.o.Color, s, styles...) }

// paint wraps s in the SGR codes of styles when color is on.
func paint(color bool, s string, styles ...style) string {
	if !color || s == "" || len(styles) == 0 {
		return s
	}
	codes := make([]string, len(styles))
	for i, st := range styles {
		codes[i] = string(st)
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}

// ColorFor reports whether output to w should be coloured: w is a terminal
// and NO_COLOR is unset, unless FORCE_COLOR or CLICOLOR_FORCE asks for colour
// anyway (as CI logs that render ANSI do).
func ColorFor(w io.Writer, getenv func(string) string) bool {
	for _, v := range []string{"FORCE_COLOR", "CLICOLOR_FORCE"} {
		if s := getenv(v); s != "" && s != "0" && s != "false" {
			return true
		}
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is w's width in columns when it is a terminal, else 0.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			return cols
		}
	}
	return 0
}
