package runlog

import (
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
	"hermes/backend/i18n"
)

const artifactsDir = "artifacts"

// SaveArtifact keeps the full output of a tool call and returns its ref, the
// slash path relative to home: "artifacts/<run>/<call>". Call ids come from
// the model, so one that cannot name a file is made safe (with a hash of the
// original, to keep distinct ids distinct). An artifact is never replaced:
// models reuse call ids (every turn's first call may be "call_0"), so when
// the name is taken the next free one of "<call>-2", "<call>-3"... is used
// (before the extension: "call_0-2.before"), and the ref returned is the one
// to read. The name is claimed before the content is written, and the
// content is renamed over it whole and synced, so a returned ref names the
// whole file, after a power cut too.
func SaveArtifact(home, runID, callID string, content []byte) (ref string, err error) {
	run, call := fileName(runID), fileName(callID)
	dir := filepath.Join(home, artifactsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create artifacts directory: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("open artifacts directory: %w", err)
	}
	defer root.Close()
	if err := root.MkdirAll(run, 0o700); err != nil {
		return "", fmt.Errorf("create artifacts of run %s: %w", run, err)
	}
	name, err := claim(root, run, call)
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFileIn(root, name, content, 0o600); err != nil {
		_ = root.Remove(name)
		return "", fmt.Errorf("save artifact %s: %w", name, err)
	}
	return artifactsDir + "/" + name, nil
}

// claim creates an empty file for a new artifact of the call in the run's
// folder, under the first name that no other artifact holds, and returns
// its slash path under root.
func claim(root *os.Root, run, call string) (string, error) {
	stem, ext := call, ""
	if i := strings.LastIndexByte(call, '.'); i > 0 {
		stem, ext = call[:i], call[i:]
	}
	for n := 1; ; n++ {
		name := run + "/" + call
		if n > 1 {
			name = fmt.Sprintf("%s/%s-%d%s", run, stem, n, ext)
		}
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("save artifact %s: %w", name, err)
		}
		if err := f.Close(); err != nil {
			_ = root.Remove(name)
			return "", fmt.Errorf("save artifact %s: %w", name, err)
		}
		return name, nil
	}
}

// fileName returns s when it is a safe file name, else a safe name derived
// from it.
func fileName(s string) string {
	if safeName(s) && !strings.HasPrefix(s, ".") {
		return s
	}
	var b strings.Builder
	for _, c := range []byte(s[:min(len(s), 64)]) {
		if safeByte(c) && c != '.' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(s))
	return b.String() + "-" + hex.EncodeToString(sum[:4])
}

// ReadArtifact returns up to limit bytes of an artifact from offset (limit <=
// 0 reads to the end) and the artifact's total size. A ref that is not a file
// under home's artifacts/ (by "..", an absolute path or a symlink) is refused
// with ErrBadArtifactRef.
func ReadArtifact(home, ref string, offset, limit int) ([]byte, int, error) {
	if offset < 0 {
		return nil, 0, fmt.Errorf("read artifact %s from %d: %w", ref, offset, ErrBadRange)
	}
	rel, ok := strings.CutPrefix(path.Clean(ref), artifactsDir+"/")
	if !ok || strings.Contains(ref, `\`) || strings.Contains(ref, "..") {
		return nil, 0, fmt.Errorf("read artifact %q: %w", ref, ErrBadArtifactRef)
	}
	root, err := os.OpenRoot(filepath.Join(home, artifactsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, i18n.Wrap(ErrArtifactNotFound, "runlog.artifact_not_found", ref)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open artifacts directory: %w", err)
	}
	defer root.Close()
	f, err := root.Open(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, i18n.Wrap(ErrArtifactNotFound, "runlog.artifact_not_found", ref)
	}
	if err != nil && !errors.Is(err, fs.ErrPermission) {
		// os.Root refuses paths that leave it, symlinks included.
		return nil, 0, fmt.Errorf("read artifact %q: %w: %w", ref, ErrBadArtifactRef, err)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read artifact %s: %w", ref, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("read artifact %s: %w", ref, err)
	}
	if !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("read artifact %q: %w", ref, ErrBadArtifactRef)
	}
	total := int(st.Size())
	if offset >= total {
		return []byte{}, total, nil
	}
	n := total - offset
	if limit > 0 && limit < n {
		n = limit
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, int64(offset)); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, fmt.Errorf("read artifact %s: %w", ref, err)
	}
	return buf, total, nil
}
