package vault

import "errors"

// ErrNoVault is returned by Open when the vault directory does not exist or
// is not a directory.
var ErrNoVault = errors.New("vault not found")

// ErrUnknownEncoding is returned when a note would be written back in an
// encoding Hermes did not recognise when reading it.
var ErrUnknownEncoding = errors.New("unrecognised text encoding")

// ErrOutside is returned for a path that would leave the vault: "..", an
// absolute path, a drive letter, a UNC path, or a symbolic link that points
// out.
var ErrOutside = errors.New("path leaves the vault")

// ErrHidden is returned for a path inside a folder that is never read
// (.obsidian, .trash, .git, node_modules, or one the config excludes).
var ErrHidden = errors.New("path in an excluded folder")

// ErrClosed is returned by a vault tool called after the process closed its
// vault.
var ErrClosed = errors.New("vault closed")

// ErrUndoRefused is returned by Undo, before it changes anything, when a
// note changed since the edit, a copy kept before it is gone, or a rename's
// old name is taken again.
var ErrUndoRefused = errors.New("undo refused")

// ErrNoNote is returned by View for a name that finds no note it may read.
var ErrNoNote = errors.New("no such note")
