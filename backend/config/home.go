package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"hermes/backend/i18n"
)

// ResolveHome finds the home directory every mode shares: flag (--home), else
// $HERMES_HOME, else ~/.hermes. A leading ~ is expanded and the path made
// absolute; the directory is created (0700) on first use.
func ResolveHome(flag string, getenv func(string) string) (string, error) {
	home := flag
	if home == "" {
		home = getenv("HERMES_HOME")
	}
	user := getenv("HOME")
	if runtime.GOOS == "windows" {
		user = getenv("USERPROFILE")
	}
	if home == "" {
		if user == "" {
			return "", i18n.Wrap(ErrHome, "config.home.none")
		}
		home = filepath.Join(user, ".hermes")
	}
	if rest, ok := strings.CutPrefix(home, "~"); ok && (rest == "" || os.IsPathSeparator(rest[0])) {
		if user == "" {
			return "", i18n.Wrap(ErrHome, "config.home.none")
		}
		home = filepath.Join(user, rest)
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", i18n.Wrap(fmt.Errorf("%w: %w", ErrHome, err), "config.home.create", home, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", i18n.Wrap(fmt.Errorf("%w: %w", ErrHome, err), "config.home.create", abs, err)
	}
	return abs, nil
}
