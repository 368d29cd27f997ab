package toolbox

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

const (
	// maxReadBytes caps one read so that a file of very long lines (minified
	// code, a data dump) cannot flood the context.
	maxReadBytes = 100_000
	// sniffBytes is how much of a file is looked at to tell binary from text.
	sniffBytes = 8000
)

type readFileArgs struct {
	Path       string `json:"path" description:"File to read, relative to the workspace root."`
	OffsetLine int    `json:"offset_line" default:"1" minimum:"1" description:"First line to return, counting from 1."`
	LimitLines int    `json:"limit_lines" default:"2000" minimum:"1" maximum:"10000" description:"Most lines to return."`
}

//go:embed read_file.md
var readFileMD string

func init() {
	Register(Builtin{Skill: SkillFiles, Make: func(w With) (Tool, bool) { return readFileTool(w.Environ), true }})
}

func readFileTool(environ *Environ) Tool {
	return Func("read_file", readFileMD, RiskRead, func(ctx context.Context, env Env, a readFileArgs) (string, error) {
		return readFile(env, environ, a)
	})
}

func readFile(env Env, environ *Environ, a readFileArgs) (string, error) {
	w, p, err := openFile(env, environ, a.Path)
	if err != nil {
		return "", err
	}
	defer w.Close()
	fi, err := w.root.Stat(p)
	switch {
	case err != nil:
		return "", fsError(a.Path, "file", err)
	case fi.IsDir():
		return "", Errorf("%s is a directory, not a file; call list_files with path %s to see what it holds", a.Path, a.Path)
	case !fi.Mode().IsRegular():
		return "", Errorf("%s is not a regular file (%s) and cannot be read; choose a text file", a.Path, fi.Mode().Type())
	}
	f, err := w.root.Open(p)
	if err != nil {
		return "", fsError(a.Path, "file", err)
	}
	defer f.Close()

	r := bufio.NewReaderSize(f, 64*1024)
	head, err := r.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", fsError(a.Path, "file", err)
	}
	if len(head) == 0 {
		return fmt.Sprintf("(%s is empty)", a.Path), nil
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "", Errorf("%s is a binary file (%d bytes); read_file reads text files only, so use what list_files says about it instead", a.Path, fi.Size())
	}

	text, shown, total, cut, err := readLines(r, a.OffsetLine, a.LimitLines)
	if err != nil {
		return "", fsError(a.Path, "file", err)
	}
	if a.OffsetLine > total {
		return "", Errorf("%s has only %s; call read_file with an offset_line of at most %d", a.Path, count(total, "line", "lines"), total)
	}
	last := a.OffsetLine + shown - 1
	text = strings.ToValidUTF8(text, "\uFFFD")
	switch {
	case cut && last < total:
		return fmt.Sprintf("%s\n[line %d is longer than %d bytes and was cut; call read_file with offset_line=%d to read the lines after it]", text, last, maxReadBytes, last+1), nil
	case cut:
		return fmt.Sprintf("%s\n[line %d is longer than %d bytes and was cut; it is the last line of the file]", text, last, maxReadBytes), nil
	case a.OffsetLine == 1 && last == total:
		return text, nil
	case last == total:
		return fmt.Sprintf("%s\n[lines %d-%d of %d; this is the end of the file]", strings.TrimSuffix(text, "\n"), a.OffsetLine, last, total), nil
	}
	return fmt.Sprintf("%s\n[lines %d-%d of %d; call read_file with offset_line=%d to read on]", strings.TrimSuffix(text, "\n"), a.OffsetLine, last, total, last+1), nil
}

// readLines returns up to limit whole lines from line offset on, stopping
// early before maxReadBytes, and counts the lines of the whole file. A first
// line longer than maxReadBytes is cut, and cut says so.
func readLines(r *bufio.Reader, offset, limit int) (text string, shown, total int, cut bool, err error) {
	var b bytes.Buffer
	atStart, collecting := true, true
	lineStart := 0
	for {
		frag, err := r.ReadSlice('\n')
		if len(frag) > 0 {
			if atStart {
				total++
				if collecting && total >= offset {
					if shown == limit {
						collecting = false
					} else {
						lineStart = b.Len()
						shown++
					}
				}
			}
			if collecting && total >= offset {
				switch {
				case b.Len()+len(frag) <= maxReadBytes:
					b.Write(frag)
				case shown == 1:
					b.Write(frag[:maxReadBytes-b.Len()])
					b.Truncate(validPrefix(b.Bytes()))
					cut, collecting = true, false
				default:
					// The line does not fit: leave it for the next call.
					b.Truncate(lineStart)
					shown--
					collecting = false
				}
			}
			atStart = frag[len(frag)-1] == '\n'
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return b.String(), shown, total, cut, nil
		case err != nil:
			return "", 0, 0, false, err
		}
	}
}

// validPrefix is the length of b without a character cut short at its end.
func validPrefix(b []byte) int {
	n := len(b)
	for i := 0; i < utf8.UTFMax-1 && n > 0; i++ {
		if r, size := utf8.DecodeLastRune(b[:n]); r != utf8.RuneError || size != 1 {
			break
		}
		n--
	}
	return n
}
