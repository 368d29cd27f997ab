package update

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hermes/backend/atomicfile"
)

// errBundleLayout marks a bundle's zip that does not hold one application
// bundle with the executable in it.
var errBundleLayout = errors.New("not a zip of one application bundle")

// unpackBundle unpacks the zip of an application bundle at zipPath into the
// new folder dst, every file and folder synced to disk, and checks that it
// holds the executable exeRel (Contents/MacOS/hermes). The zip holds one
// X.app folder (as `ditto -c -k --keepParent` makes it) or the bundle's
// Contents at its top. Entries that would land outside dst, and symlinks
// that point outside it, are refused; macOS's __MACOSX and ._ files are
// skipped.
func unpackBundle(zipPath, dst, exeRel string) error {
	r, err := zip.OpenReader(zipPath)
	if err != nil {
		return fmt.Errorf("open %s: %w", zipPath, err)
	}
	defer r.Close()
	var files []*zip.File
	for _, f := range r.File {
		if f.Name == "__MACOSX" || strings.HasPrefix(f.Name, "__MACOSX/") || strings.HasPrefix(path.Base(f.Name), "._") {
			continue
		}
		files = append(files, f)
	}
	prefix, err := bundlePrefix(files)
	if err != nil {
		return fmt.Errorf("%s: %w", zipPath, err)
	}
	if err := os.Mkdir(dst, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dst, err)
	}
	for _, f := range files {
		rel := strings.TrimSuffix(strings.TrimPrefix(f.Name, prefix), "/")
		if rel == "" {
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return fmt.Errorf("%s: entry %q leaves the bundle: %w", zipPath, f.Name, errBundleLayout)
		}
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(target), err)
		}
		mode := f.Mode()
		switch {
		case mode.IsDir():
			if err := os.MkdirAll(target, mode.Perm()|0o700); err != nil {
				return fmt.Errorf("create %s: %w", target, err)
			}
		case mode&fs.ModeSymlink != 0:
			if err := unpackSymlink(f, rel, target); err != nil {
				return fmt.Errorf("%s: %w", zipPath, err)
			}
		case mode.IsRegular():
			if err := unpackFile(f, target, mode.Perm()|0o600); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: entry %q is not a file, folder or symlink: %w", zipPath, f.Name, errBundleLayout)
		}
	}
	exe := filepath.Join(dst, exeRel)
	st, err := os.Lstat(exe)
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s has no %s: %w", zipPath, filepath.ToSlash(exeRel), errBundleLayout)
	}
	// A zip made without Unix modes would leave the executable unable to run.
	if st.Mode().Perm()&0o111 == 0 {
		if err := os.Chmod(exe, 0o755); err != nil {
			return fmt.Errorf("chmod %s: %w", exe, err)
		}
	}
	return syncDirs(dst)
}

// bundlePrefix is the folder of the zip that is the bundle: "X.app/" when
// the zip holds one, "" when Contents is at its top.
func bundlePrefix(files []*zip.File) (string, error) {
	var top string
	for _, f := range files {
		first, _, _ := strings.Cut(f.Name, "/")
		switch {
		case top == "":
			top = first
		case first != top:
			return "", fmt.Errorf("both %q and %q at its top: %w", top, first, errBundleLayout)
		}
	}
	switch {
	case top == "Contents":
		return "", nil
	case strings.HasSuffix(strings.ToLower(top), ".app"):
		return top + "/", nil
	}
	return "", fmt.Errorf("%q at its top: %w", top, errBundleLayout)
}

func unpackFile(f *zip.File, target string, perm os.FileMode) error {
	in, err := f.Open()
	if err != nil {
		return fmt.Errorf("read %s from the zip: %w", f.Name, err)
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("create %s: %w", target, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return fmt.Errorf("unpack %s: %w", f.Name, err)
	}
	if err := out.Chmod(perm); err != nil { // past the umask
		_ = out.Close()
		return fmt.Errorf("chmod %s: %w", target, err)
	}
	return closeSync(out)
}

// unpackSymlink makes the symlink a zip entry holds (its target is the
// entry's content), refusing one that points outside the bundle.
func unpackSymlink(f *zip.File, rel, target string) error {
	in, err := f.Open()
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Name, err)
	}
	link, err := io.ReadAll(io.LimitReader(in, 4096))
	_ = in.Close()
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Name, err)
	}
	to := filepath.FromSlash(string(link))
	if filepath.IsAbs(to) || !filepath.IsLocal(filepath.Join(filepath.Dir(filepath.FromSlash(rel)), to)) {
		return fmt.Errorf("symlink %q points outside the bundle (%q): %w", f.Name, link, errBundleLayout)
	}
	if err := os.Symlink(to, target); err != nil {
		return fmt.Errorf("create %s: %w", target, err)
	}
	return nil
}

// copyTree copies the folder src to the new folder dst: files with their
// modes, symlinks as symlinks, everything synced to disk.
func copyTree(src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			return os.Mkdir(target, mode.Perm()|0o700)
		case mode&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case mode.IsRegular():
			return copyFileSync(p, target, mode.Perm())
		}
		return fmt.Errorf("%s is not a file, folder or symlink", p)
	})
	if err != nil {
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return syncDirs(dst)
}

// syncDirs fsyncs every folder of the tree at root, so the names in them
// survive a power cut.
func syncDirs(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return atomicfile.SyncDir(p)
		}
		return nil
	})
}

// treeDigest is a SHA-256 over the tree at root: every name in it, its
// kind and mode, and each file's bytes or each symlink's target. It tells
// a kept bundle from a damaged one.
func treeDigest(root string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		// A hash's Write never fails.
		_, _ = fmt.Fprintf(h, "%s\x00%v\x00", filepath.ToSlash(rel), info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			_, _ = fmt.Fprintf(h, "%s\x00", link)
		case info.Mode().IsRegular():
			sum, err := fileSHA256(p)
			if err != nil {
				return err
			}
			_, _ = fmt.Fprintf(h, "%s\x00", sum)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("read %s: %w", root, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
