//go:build !linux && !darwin

package update

// exchange is not offered here: a bundle's swap takes two renames.
func exchange(_, _ string) error { return errNoExchange }
