package homelock

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
)

// TokenName is the file beside hermes.lock that keeps the home's token.
const TokenName = "hermes.token"

// TokenPath is where home's token is kept.
func TokenPath(home string) string { return filepath.Join(home, TokenName) }

// HomeToken is the token of the local API of every process that opens
// home, kept in HOME/hermes.token (0600, in the home that sandboxed
// commands and the file tools never read), so that a browser let in by
// `hermes serve` stays in when the server starts again. A missing file, or
// one that does not hold a token, gets a new token; so does renew, and a
// file that others than its owner may read, since its token is no secret
// any more.
func HomeToken(home string, renew bool) (string, error) {
	path := TokenPath(home)
	if !renew {
		tok, err := readToken(path)
		if errors.Is(err, fs.ErrNotExist) {
			// Created only where there is none, so that two processes
			// starting at once agree on the one written first.
			tok = NewToken()
			err = atomicfile.WriteFile(path, []byte(tok+"\n"), 0o600, atomicfile.NoReplace())
			if errors.Is(err, fs.ErrExist) {
				tok, err = readToken(path)
			}
		}
		if err == nil {
			return tok, nil
		}
		if !errors.Is(err, errBadToken) {
			return "", i18n.Wrap(err, "homelock.token_failed", path, err)
		}
	}
	tok := NewToken()
	if err := atomicfile.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", i18n.Wrap(err, "homelock.token_failed", path, err)
	}
	return tok, nil
}

// errBadToken marks a token file that holds no token, or that others may
// read: it is replaced.
var errBadToken = errors.New("not a token only its owner reads")

func readToken(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	// Windows has no such bits: the home's folder in the user's profile is
	// the user's own.
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return "", errBadToken
	}
	b := make([]byte, 128)
	n, _ := f.Read(b)
	tok := strings.TrimSpace(string(b[:n]))
	if len(tok) != 32 || strings.Trim(tok, "0123456789abcdef") != "" {
		return "", errBadToken
	}
	return tok, nil
}
