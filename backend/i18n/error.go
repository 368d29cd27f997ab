package i18n

import (
	"errors"
	"strings"
)

// MessageIn renders err for a person in lang: the outermost i18n message in
// its chain, with the errors and Texts among its arguments rendered too,
// each error of a joined list in turn, and an error with no message as it
// is.
func MessageIn(lang Lang, err error) string {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		parts := make([]string, 0, len(joined.Unwrap()))
		for _, e := range joined.Unwrap() {
			parts = append(parts, MessageIn(lang, e))
		}
		return strings.Join(parts, "; ")
	}
	var ie *Error
	if !errors.As(err, &ie) {
		return err.Error()
	}
	args := make([]any, len(ie.Args))
	for i, a := range ie.Args {
		if e, ok := a.(error); ok {
			a = MessageIn(lang, e)
		}
		args[i] = a
	}
	return TextOf(ie.Key, args...).In(lang)
}
