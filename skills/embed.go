// Package skills holds the instructions of the built-in skills that have
// them, skills/NAME/SKILL.md, embedded in the binary. Their manifests and
// tools are Go code in backend/toolbox and backend/vault.
package toolbox

import (
	"embed"
	"io/fs"
)

//go:embed */SKILL.md
var files embed.FS

// FS is the tree of the built-in skills' instructions.
func FS() fs.FS { return files }
