package update

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"hermes/backend/atomicfile"
)

// Migration brings one part of the home directory (the config, the store)
// to the layout of the running version. Packages register theirs in init.
type Migration struct {
	Name string
	// Files lists the files Run may change. They are all backed up before
	// any migration runs, and restored when one fails or when the version is
	// rolled back, so the previous binary finds them as it left them.
	Files func(home string) []string
	// Run migrates. It runs once at the first start of each new version and
	// must do nothing when there is nothing to migrate.
	Run func(ctx context.Context, home string) error
}

var (
	migrationsMu sync.Mutex
	migrations   []Migration
)

// RegisterMigration adds m to the migrations run at a new version's first
// start, after those registered before it.
func RegisterMigration(m Migration) {
	migrationsMu.Lock()
	defer migrationsMu.Unlock()
	migrations = append(migrations, m)
}

// migratedRecord says which version's migrations the home directory has.
type migratedRecord struct {
	Version string `json:"version"`
}

// backupManifest describes the backup taken before version's migrations.
type backupManifest struct {
	Version string       `json:"version"` // the version that migrated
	From    string       `json:"from"`    // the version migrated from, "" if unknown
	Files   []backupFile `json:"files"`
}

type backupFile struct {
	Path    string `json:"path"`
	Backup  string `json:"backup"`
	Existed bool   `json:"existed"`
}

func migratedPath(home string) string { return filepath.Join(home, "updates", "migrated.json") }
func backupDir(home string) string    { return filepath.Join(home, "updates", "backup") }

// Migrate runs the registered migrations the first time version starts in
// home, after backing up every file they may change. If one fails, the
// files are restored and the error wraps ErrMigration.
func Migrate(ctx context.Context, home, version string) error {
	migrationsMu.Lock()
	ms := append([]Migration(nil), migrations...)
	migrationsMu.Unlock()
	return migrate(ctx, home, version, ms)
}

func migrate(ctx context.Context, home, version string, ms []Migration) error {
	var done migratedRecord
	if err := readJSON(migratedPath(home), &done); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if done.Version == version {
		return nil
	}
	// A backup for this version was left by an attempt that died half-way:
	// its files go back first, so the migrations and the new backup start
	// from the files as they were.
	if err := restoreBackup(home, version); err != nil {
		return err
	}
	if err := takeBackup(home, version, done.Version, ms); err != nil {
		return err
	}
	for _, m := range ms {
		if err := m.Run(ctx, home); err != nil {
			err = fmt.Errorf("migration %s to %s: %w: %w", m.Name, version, ErrMigration, err)
			if rErr := restoreBackup(home, version); rErr != nil {
				return errors.Join(err, rErr)
			}
			return err
		}
	}
	return writeJSON(migratedPath(home), migratedRecord{Version: version})
}

// takeBackup copies the migrations' files into a fresh backup directory,
// which replaces the previous one only once it is complete.
func takeBackup(home, version, from string, ms []Migration) error {
	dir := backupDir(home)
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("clear %s: %w", tmp, err)
	}
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	manifest := backupManifest{Version: version, From: from}
	for _, m := range ms {
		if m.Files == nil {
			continue
		}
		for _, path := range m.Files(home) {
			name := fmt.Sprintf("%03d-%s", len(manifest.Files), filepath.Base(path))
			f := backupFile{Path: path, Backup: name}
			st, err := os.Stat(path)
			switch {
			case err == nil:
				f.Existed = true
				if err := copyFileSync(path, filepath.Join(tmp, name), st.Mode().Perm()); err != nil {
					return fmt.Errorf("back up %s: %w", path, err)
				}
			case !errors.Is(err, fs.ErrNotExist):
				return fmt.Errorf("back up %s: %w", path, err)
			}
			manifest.Files = append(manifest.Files, f)
		}
	}
	if err := writeJSON(filepath.Join(tmp, "manifest.json"), manifest); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("clear %s: %w", dir, err)
	}
	if err := atomicfile.Rename(tmp, dir); err != nil {
		return fmt.Errorf("rename %s: %w", tmp, err)
	}
	return nil
}

// restoreBackup puts back the files as they were before version's
// migrations; a backup taken for another version is left alone.
func restoreBackup(home, version string) error {
	dir := backupDir(home)
	var manifest backupManifest
	if err := readJSON(filepath.Join(dir, "manifest.json"), &manifest); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if manifest.Version != version {
		return nil
	}
	for _, f := range manifest.Files {
		if !f.Existed {
			if err := removeIfExists(f.Path); err != nil {
				return err
			}
			continue
		}
		src := filepath.Join(dir, f.Backup)
		st, err := os.Stat(src)
		if err != nil {
			return fmt.Errorf("restore %s: %w", f.Path, err)
		}
		err = atomicfile.Write(f.Path, st.Mode().Perm(), func(w io.Writer) error {
			return copyFrom(src, w)
		}, atomicfile.ExactMode())
		if err != nil {
			return fmt.Errorf("restore %s: %w", f.Path, err)
		}
	}
	if err := writeJSON(migratedPath(home), migratedRecord{Version: manifest.From}); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("clear %s: %w", dir, err)
	}
	return nil
}
