package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
	if err := writeFileAtomic(path, DefaultFile(lang), 0o600); err != nil {
		return "", i18n.Wrap(err, "config.write", path, err)
	}
	return backup, nil
}

// writeBackup keeps data beside path under the first free name among
// path+suffix, path+".1"+suffix, …, so no earlier backup is overwritten.
func writeBackup(path, suffix string, data []byte) (string, error) {
	for n := 0; ; n++ {
		name := path + suffix
		if n > 0 {
			name = path + "." + strconv.Itoa(n) + suffix
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", i18n.Wrap(err, "config.backup", name, err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", i18n.Wrap(err, "config.backup", name, err)
		}
		return name, nil
	}
}

// writeFileAtomic replaces path with data through a temporary file in the
// same directory and a rename, so a crash leaves the old file or the new
// one, never half of either; a watcher sees one change.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(path)
	tmp, err := os.CreateTemp(dir, "."+strings.TrimPrefix(base, ".")+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
