package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
)

// Init writes the commented default config (DefaultFile in lang) to path,
// creating its directory. An existing file is kept and ErrExists returned,
// unless force: then the old file is first copied to a backup beside it,
// whose path is returned.
func Init(path string, lang i18n.Lang, force bool) (backup string, err error) {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", i18n.Wrap(err, "config.read", path, err)
	case !force:
		return "", i18n.Wrap(ErrExists, "config.init.exists", path)
	default:
		if backup, err = writeBackup(path, ".bak", old); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", i18n.Wrap(err, "config.write", path, err)
	}
	if err := atomicfile.WriteFile(path, DefaultFile(lang), 0o600, atomicfile.ExactMode()); err != nil {
		return "", i18n.Wrap(err, "config.write", path, err)
	}
	return backup, nil
}

// writeBackup keeps data beside path under the first free name among
// path+suffix, path+".1"+suffix, …: no earlier backup is overwritten, and a
// backup appears whole or not at all.
func writeBackup(path, suffix string, data []byte) (string, error) {
	for n := 0; ; n++ {
		name := path + suffix
		if n > 0 {
			name = path + "." + strconv.Itoa(n) + suffix
		}
		err := atomicfile.WriteFile(name, data, 0o600, atomicfile.NoReplace())
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", i18n.Wrap(err, "config.backup", name, err)
		}
		return name, nil
	}
}
