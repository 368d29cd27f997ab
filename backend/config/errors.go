package config

import "errors"

var (
	// ErrSyntax is returned by Load when the file is not valid TOML.
	ErrSyntax = errors.New("config syntax error")

	// ErrUnknownKey is returned by Load for a key that no setting has.
	ErrUnknownKey = errors.New("unknown config key")

	// ErrWrongType is returned by Load for a value of the wrong type.
	ErrWrongType = errors.New("config value of the wrong type")

	// ErrEscapedPath is returned by Load for a string that a backslash escape
	// turned into a control character, as in a Windows path in double quotes.
	ErrEscapedPath = errors.New("control character in a config string")

	// ErrInvalid is returned by Validate for a setting out of its range.
	ErrInvalid = errors.New("invalid config value")

	// ErrHome is returned by ResolveHome when the home directory cannot be
	// found or made.
	ErrHome = errors.New("no usable home directory")
)
