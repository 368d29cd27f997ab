package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// readableLen bounds the part of a folder name taken from the user's id;
// the hash after it keeps names apart, so the whole stays far below every
// filesystem's limit of 255 bytes.
const readableLen = 32

// folderName is the workspace folder of a user id: the id's first bytes
// with every character but ASCII letters, digits, '-', '_' and '@' made
// '_', then '-' and a hash of the whole id. Ids that read alike (team/alice
// and team_alice), that differ in case only (on the case-insensitive
// filesystems of Windows and macOS) or only past the readable part get
// folders of their own; no name is a Windows device name or hidden, and
// none ends in a dot or a space.
func folderName(id string) string {
	sum := sha256.Sum256([]byte(id))
	var b strings.Builder
	for i := 0; i < len(id) && i < readableLen; i++ {
		if c := id[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '@' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() > 0 {
		b.WriteByte('-')
	}
	b.WriteString(hex.EncodeToString(sum[:6]))
	return b.String()
}

// legacyName is the folder an id had before folderName, and whether it
// was the id's alone: it was when it is the id itself; an id whose
// characters were replaced may have shared it with another.
func legacyName(id string) (name string, owned bool) {
	name = safeName(id)
	return name, name == id && len(id) <= 255
}

// Workspace is the folder the runs of user's tasks on platform work in.
func (b *Bot) Workspace(platform, user string) string {
	return filepath.Join(b.wsRoot, platform, folderName(user))
}

// makeWorkspace returns user's workspace folder, made if need be. A
// folder of the old naming that was user's alone is moved to the new name
// first; one that may have been shared is left where it is, and the log
// says so.
func (b *Bot) makeWorkspace(platform, user string) (string, error) {
	ws := b.Workspace(platform, user)
	if _, err := os.Stat(ws); err == nil {
		return ws, nil
	}
	dir := filepath.Dir(ws)
	if old, owned := legacyName(user); hasEntry(dir, old) {
		from := filepath.Join(dir, old)
		if !owned {
			b.log.Warn("a workspace of the old naming is left in place: other ids may have shared it", "user", user, "folder", from, "workspace", ws)
		} else if err := os.Rename(from, ws); err != nil {
			return "", fmt.Errorf("%w: move %s to %s: %v", ErrWorkspace, from, ws, err)
		} else {
			b.log.Info("workspace moved to its new name", "user", user, "from", from, "to", ws)
			return ws, nil
		}
	}
	if err := os.MkdirAll(ws, 0o700); err != nil {
		return "", fmt.Errorf("%w: %v", ErrWorkspace, err)
	}
	return ws, nil
}

// hasEntry reports whether dir holds a folder named exactly name: not
// another of the same letters in another case, which a case-insensitive
// filesystem would find too.
func hasEntry(dir, name string) bool {
	if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.IsDir() {
		return false
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// safeName is how the old naming made an id one path element.
func safeName(id string) string {
	b := []byte(id)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '@'
		if !ok {
			b[i] = '_'
		}
	}
	name := string(b)
	if name == "" || name == "." || name == ".." {
		name = "_" + name
	}
	return name
}
