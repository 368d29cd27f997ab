// Package atomicfile writes files so that what a user cannot redo survives
// a crash or a power cut: a file is written under a temporary name in its
// own directory, synced, renamed over its name, and the directory is
// synced, so the name holds the old content or the new one, never part of
// either, and a watcher sees one change.
package atomicfile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Option changes how a file is written.
type Option func(*options)

type options struct {
	keepMode, exactMode, noReplace, noSync bool
}

// KeepMode gives the new file the permission bits of the file it replaces,
// exactly; perm is used (narrowed by the umask) only when there is none.
func KeepMode() Option { return func(o *options) { o.keepMode = true } }

// ExactMode sets perm on the file exactly instead of letting the umask
// narrow it, as for a binary that must stay executable.
func ExactMode() Option { return func(o *options) { o.exactMode = true } }

// NoReplace only creates: when the name exists the write fails with an
// error that wraps fs.ErrExist and the existing file is left alone. The
// file still appears whole: it is linked to its name once written. Where
// hard links are not supported the name is claimed empty first (with
// O_EXCL) and the written file renamed over it.
func NoReplace() Option { return func(o *options) { o.noReplace = true } }

// NoSync leaves the file and its directory unsynced, for a file that a
// crash makes meaningless anyway (a lock, whose process the crash ends):
// it still appears whole or not at all to another process, and the syncs
// (a journal commit each) are left out of the writer's start.
func NoSync() Option { return func(o *options) { o.noSync = true } }

// WriteFile replaces the file at path with data, or creates it with perm
// (narrowed by the umask, as os.WriteFile does).
func WriteFile(path string, data []byte, perm fs.FileMode, opts ...Option) error {
	return write(osDir{}, path, perm, writeBytes(data), opts)
}

// Write is WriteFile for content produced by fill, which streams it into
// the temporary file: if fill fails, path is left as it was and the error
// is returned, wrapped.
func Write(path string, perm fs.FileMode, fill func(io.Writer) error, opts ...Option) error {
	return write(osDir{}, path, perm, fill, opts)
}

// WriteFileIn is WriteFile for name inside root, which it never leaves.
func WriteFileIn(root *os.Root, name string, data []byte, perm fs.FileMode, opts ...Option) error {
	return write(root, name, perm, writeBytes(data), opts)
}

// Rename moves oldpath to newpath, replacing it (on Windows as well), and
// syncs newpath's directory so the new name survives a power cut. The
// caller has synced what oldpath holds.
func Rename(oldpath, newpath string) error {
	if err := os.Rename(oldpath, newpath); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(newpath))
}

// SyncDir makes the names created, renamed or removed in dir durable:
// without it a crash can forget a new name even though the file's bytes
// were synced. It does nothing on Windows, where NTFS journals names.
func SyncDir(dir string) error {
	if err := syncDir(osDir{}, dir); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

func writeBytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// dir is where a file is written: the file system (names are paths) or an
// *os.Root (names stay inside it).
type dir interface {
	Open(name string) (*os.File, error)
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Stat(name string) (fs.FileInfo, error)
	Rename(oldname, newname string) error
	Link(oldname, newname string) error
	Remove(name string) error
}

var _ dir = (*os.Root)(nil)

type osDir struct{}

func (osDir) Open(name string) (*os.File, error) { return os.Open(name) }
func (osDir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osDir) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (osDir) Rename(oldname, newname string) error  { return os.Rename(oldname, newname) }
func (osDir) Link(oldname, newname string) error    { return os.Link(oldname, newname) }
func (osDir) Remove(name string) error              { return os.Remove(name) }

func write(d dir, name string, perm fs.FileMode, fill func(io.Writer) error, opts []Option) error {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := writeIn(d, name, perm, fill, o); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

func writeIn(d dir, name string, perm fs.FileMode, fill func(io.Writer) error, o options) (err error) {
	exact := o.exactMode
	if o.keepMode {
		if fi, err := d.Stat(name); err == nil {
			perm, exact = fi.Mode().Perm(), true
		}
	}
	tmp, f, err := createTemp(d, name, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = d.Remove(tmp)
		}
	}()
	err = fill(f)
	if err == nil && exact {
		err = f.Chmod(perm)
	}
	if err == nil && !o.noSync {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return err
	}
	if o.noReplace {
		err = create(d, tmp, name)
	} else {
		err = d.Rename(tmp, name)
	}
	if err != nil || o.noSync {
		return err
	}
	return syncDir(d, filepath.Dir(name))
}

// tempNames is how many fixed temporary names a write tries before a
// random one. Linux keeps a directory entry for every name removed from a
// directory, and adding a watch on the directory (the home at each start of
// the window, hermes serve or the bot; a vault's folders) walks them all:
// a home through 1,000 starts, each writing its lock under a name of its
// own, took 145 µs to watch, a fresh one 5 µs. Names reused leave one entry
// a file.
const tempNames = 4

// createTemp creates the file name is written into before it takes the
// name: a dot name keeps it out of listings and sync clients meanwhile;
// a writer takes the first of the fixed names that no other writer holds
// (nor a crash left), then a random one.
func createTemp(d dir, name string, perm fs.FileMode) (string, *os.File, error) {
	prefix := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".hermes-")
	for i := 0; ; i++ {
		tmp := prefix + strconv.Itoa(i) + ".tmp"
		if i == tempNames {
			tmp = prefix + rand.Text()[:8] + ".tmp"
		}
		f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && i < tempNames {
			continue
		}
		return tmp, f, err
	}
}

// create gives the written file tmp the name, unless the name exists.
func create(d dir, tmp, name string) error {
	err := d.Link(tmp, name)
	if err == nil {
		_ = d.Remove(tmp) // a leftover second name is harmless
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	// No hard links here (FAT, some network shares): claim the name.
	f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		_ = d.Remove(name)
		return err
	}
	if err := d.Rename(tmp, name); err != nil {
		_ = d.Remove(name)
		return err
	}
	return nil
}
