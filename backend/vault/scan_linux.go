package vault

import (
	"bytes"
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// listDir lists what listRootDir lists, for less: the folder is opened
// through os.Root, then read with getdents, whose entries carry their
// type, so that only notes are stat'ed, relative to the folder, into one
// buffer.
func (v *Vault) listDir(dir string) ([]dirEntry, error) {
	f, err := v.root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var (
		out  []dirEntry
		lerr error
	)
	if err := rc.Control(func(fd uintptr) { out, lerr = v.readDirents(int(fd)) }); err != nil {
		return nil, err
	}
	return out, lerr
}

// The fields of struct linux_dirent64, the same on every architecture.
const (
	direntReclen = 16 // uint16
	direntType   = 18 // uint8
	direntName   = 19 // NUL-terminated
)

func (v *Vault) readDirents(fd int) ([]dirEntry, error) {
	var (
		out []dirEntry
		buf = make([]byte, 32<<10)
		st  unix.Stat_t
	)
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= direntName; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
			if reclen < direntName || reclen > len(b) {
				return nil, errors.New("malformed directory entry")
			}
			typ, raw := b[direntType], b[direntName:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(raw, 0); i >= 0 {
				raw = raw[:i]
			}
			name := string(raw)
			if name == "." || name == ".." || v.excluded(name) {
				continue
			}
			if typ == unix.DT_DIR {
				out = append(out, dirEntry{name: name, kind: entryDir})
				continue
			}
			// A file system that gives no types (DT_UNKNOWN) has every
			// entry stat'ed, to find its folders.
			if typ != unix.DT_UNKNOWN && (!isNote(name) || typ != unix.DT_REG && typ != unix.DT_LNK) {
				continue
			}
			if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
				continue // gone since the listing
			}
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFDIR:
				out = append(out, dirEntry{name: name, kind: entryDir})
			case unix.S_IFREG:
				if isNote(name) {
					out = append(out, dirEntry{name, entryNote, stamp{st.Size, st.Mtim.Nano()}})
				}
			case unix.S_IFLNK:
				if isNote(name) {
					out = append(out, dirEntry{name: name, kind: entryLink})
				}
			}
		}
	}
}
