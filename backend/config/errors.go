package config

import "errors"

var (
	// ErrSyntax is returned by Load when the file is not valid TOML.
	ErrSyntax = errors.New("config syntax error")

	// ErrTooLarge is returned by Load when the file is larger than any
	// config: it is not read whole, nor parsed.
	ErrTooLarge = errors.New("config file too large")

	// ErrTooDeep is returned by Load when the file nests deeper, or holds
	// more nested keys, than any config: it is not parsed.
	ErrTooDeep = errors.New("config nests too deep")

	// ErrUnknownKey is returned by Load for a key that no setting has.
	ErrUnknownKey = errors.New("unknown config key")

	// ErrWrongType is returned by Load for a value of the wrong type.
	ErrWrongType = errors.New("config value of the wrong type")

	// ErrEscapedPath is returned by Load for a string that a backslash escape
	// turned into a control character, as in a Windows path in double quotes.
	ErrEscapedPath = errors.New("control character in a config string")

	// ErrInvalid is returned by Validate for a setting out of its range.
	ErrInvalid = errors.New("invalid config value")

	// ErrExists is returned by Init when the config file is already there
	// and force is not set.
	ErrExists = errors.New("config file exists")

	// ErrMigrate is returned by Migrate and Load when a config from an older
	// version cannot be upgraded; the file is left as it was.
	ErrMigrate = errors.New("config migration failed")

	// ErrRemoved is reported by Watch when the config file is deleted; the
	// last good config stays in force.
	ErrRemoved = errors.New("config file removed")

	// ErrHome is returned by ResolveHome when the home directory cannot be
	// found or made.
	ErrHome = errors.New("no usable home directory")
)
