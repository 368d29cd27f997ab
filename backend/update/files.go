package update

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"hermes/backend/atomicfile"
)

// copyFrom streams the file at src into w, for atomicfile.Write.
func copyFrom(src string, w io.Writer) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer in.Close()
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return nil
}

// copyFileSync copies src to dst (created or truncated) and fsyncs it; the
// caller renames dst into place.
func copyFileSync(src, dst string, perm os.FileMode) error { return copyFile(src, dst, perm, true) }

// copyFile copies src to dst, fsyncing it when the copy must survive a
// crash.
func copyFile(src, dst string, perm os.FileMode, sync bool) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	// The mode is set again because the umask may have narrowed it, and a
	// binary that cannot be executed is a broken install.
	if err := out.Chmod(perm); err != nil {
		_ = out.Close()
		return fmt.Errorf("chmod %s: %w", dst, err)
	}
	if !sync {
		if err := out.Close(); err != nil {
			return fmt.Errorf("close %s: %w", dst, err)
		}
		return nil
	}
	return closeSync(out)
}

func closeSync(f *os.File) error {
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("sync %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", f.Name(), err)
	}
	return nil
}

// readJSON decodes the file at path into v; a missing file is reported as
// fs.ErrNotExist so callers can tell "none" from "unreadable".
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode %s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o600)
}

// removeIfExists removes path; a path that is already gone is not an error.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
