package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
)

// ErrBadVault is returned by SetVault for a vault that is not a folder.
var ErrBadVault = errors.New("the vault is not a folder")

// vaultMu keeps two saves of the vault from interleaving their read and
// write of the file.
var vaultMu sync.Mutex

// commentedVault is the line of the commented default that shows the key.
var commentedVault = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*#\s*vault\s*=`) })

// SetVault writes [obsidian] vault = vault into the config at path, the
// rest of the file as it was (comments, order, blank lines); "" removes the
// key, which leaves the vault tools out. A file that is not there is
// written as the commented default first. The vault must be an existing
// folder, absolute or under "~/"; the file must stay valid, else nothing
// is written.
func SetVault(path, vault string) error {
	vault = strings.TrimSpace(vault)
	if vault != "" {
		if err := checkVault(vault); err != nil {
			return err
		}
	}
	vaultMu.Lock()
	defer vaultMu.Unlock()
	raw, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		raw = DefaultFile(i18n.Current())
	case errors.Is(err, ErrTooLarge):
		return err
	case err != nil:
		return i18n.Wrap(err, "config.read", path, err)
	}
	doc := newTextDoc(string(raw))
	if vault == "" {
		err = doc.Delete("obsidian.vault")
	} else {
		err = setVaultLine(doc, vault)
	}
	if err != nil {
		return i18n.Wrap(errors.Join(ErrInvalid, err), "config.vault.edit", path, err)
	}
	out := doc.String()
	if _, _, err := parse(path, []byte(out)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return i18n.Wrap(err, "config.write", path, err)
	}
	if err := atomicfile.WriteFile(path, []byte(out), 0o600, atomicfile.KeepMode()); err != nil {
		return i18n.Wrap(err, "config.write", path, err)
	}
	return nil
}

// setVaultLine gives the key its value: in place when it is written, else
// under the commented example of the default file ("# vault = \"\""), so
// that the comment above it still describes it, else at its table's end.
func setVaultLine(doc *textDoc, vault string) error {
	if _, _, found, err := doc.find("obsidian.vault"); err != nil || found {
		if err != nil {
			return err
		}
		return doc.Set("obsidian.vault", vault)
	}
	if p, ok := keyPositions(doc.String())["obsidian"]; ok {
		for i := p.line; i < len(doc.lines); i++ {
			line := strings.TrimSpace(doc.lines[i])
			if strings.HasPrefix(line, "[") {
				break
			}
			if commentedVault().MatchString(line) {
				doc.replace(i+1, i+1, []string{"vault = " + tomlValue(reflect.ValueOf(vault))})
				return nil
			}
		}
	}
	return doc.Set("obsidian.vault", vault)
}

// checkVault refuses a vault that is not an existing folder, or is a
// relative path, which would depend on where Hermes was started.
func checkVault(vault string) error {
	dir := vault
	if rest, ok := strings.CutPrefix(vault, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return i18n.Wrap(ErrBadVault, "config.vault.not_folder", vault)
		}
		dir = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(dir) {
		return i18n.Wrap(ErrBadVault, "config.vault.relative", vault)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return i18n.Wrap(ErrBadVault, "config.vault.not_folder", vault)
	}
	return nil
}
