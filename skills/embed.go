// Package skills holds the instructions of the built-in skills that have
// them, skills/NAME/SKILL.md, embedded in the binary. Their manifests are
// Go values in backend/toolbox (skills.go); their tools are Go code there
// and in backend/vault.
package toolbox

import (
	"embed"
	"io/fs"
)

//go:embed */SKILL.md
var files embed.FS

// FS is the tree of the built-in skills' instructions.
func FS() fs.FS { return files }
