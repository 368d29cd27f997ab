package vault

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// neverRead are folders whose files are not notes: Obsidian's settings and
// plugins, its trash, version control, and JavaScript packages.
var neverRead = []string{".obsidian", ".trash", ".git", "node_modules"}

// pathError is a path the model gave that cannot be used; its text tells
// the model what to do instead.
type pathError struct {
	msg string
	err error
}

func (e *pathError) Error() string { return e.msg }
func (e *pathError) Unwrap() error { return e.err }

// clean turns a path as the model wrote it into a slash path relative to
// the vault root ("" for the root itself). It refuses what could name a
// place outside the vault or in a folder that is never read; symbolic links
// are left to os.Root, which refuses those that lead out.
func (v *Vault) clean(p string) (string, error) {
	outside := func(why string) error {
		return &pathError{err: ErrOutside, msg: fmt.Sprintf(
			"%q %s; use a path relative to the vault root, with forward slashes, such as Projects/Plan.md (call list_notes to see the folders)", p, why)}
	}
	if strings.ContainsRune(p, 0) {
		return "", outside("contains a NUL byte, which no file name can hold")
	}
	s := strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	switch {
	case strings.HasPrefix(s, "//"):
		return "", outside("is a UNC network path, outside the vault")
	case len(s) >= 2 && s[1] == ':' && isASCIILetter(s[0]):
		return "", outside("starts with a drive letter, so it is outside the vault")
	case strings.HasPrefix(s, "/"):
		return "", outside("is an absolute path; vault paths are relative")
	case strings.HasPrefix(s, "~"):
		return "", outside("names a home directory, outside the vault")
	}
	parts := strings.Split(s, "/")
	if slices.Contains(parts, "..") {
		return "", outside(`goes up with "..", which could leave the vault`)
	}
	s = path.Clean(s)
	if s == "." {
		return "", nil
	}
	for _, part := range strings.Split(s, "/") {
		if v.excluded(part) {
			return "", &pathError{err: ErrHidden, msg: fmt.Sprintf(
				"%q is inside %s, a folder that is never read (app settings, trash, version control or packages); notes live elsewhere, so call list_notes to find them", p, part)}
		}
	}
	return s, nil
}

// excluded reports whether a folder or file name is never read. Names are
// compared without regard to case, and as Windows opens them (without
// trailing dots and spaces, nor an NTFS stream after a colon), because on
// macOS and Windows ".OBSIDIAN" and ".obsidian." are Obsidian's own folder.
func (v *Vault) excluded(name string) bool {
	name, _, _ = strings.Cut(name, ":")
	name = strings.TrimRight(name, ". ")
	if len(v.exclude) == 0 && !foldsToASCII(name) {
		return false // folding, the scan's cost per note, cannot make it one of neverRead
	}
	name = fold(name)
	if slices.Contains(neverRead, name) {
		return true
	}
	for _, pattern := range v.exclude {
		if ok, _ := path.Match(pattern, name); ok {
			return true
		}
	}
	return false
}

// fold maps s to one spelling per case-insensitive equivalence class, so
// that "K" (Kelvin) and "ſ" (long s) meet "k" and "s" as file systems that
// ignore case make them meet.
func fold(s string) string { return strings.ToLower(strings.ToUpper(s)) }

// foldsToASCII reports whether fold(s) may be ASCII: false when s holds a
// rune beyond ASCII that has no case (a Chinese character), which fold
// keeps as it is.
func foldsToASCII(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.ToUpper(r) == r && unicode.ToLower(r) == r {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isNote reports whether a file name is a Markdown note.
func isNote(name string) bool {
	return strings.EqualFold(path.Ext(name), ".md")
}
