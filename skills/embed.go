// Package skills holds the manifests of the built-in skills, one folder
// each, embedded in the binary. Their tools are Go code in backend/ that
// the manifests name; backend/toolbox loads them beside the user's own.
package toolbox

import (
	"embed"
	"io/fs"
)

//go:embed */skill.json */SKILL.md
var files embed.FS

// FS is the tree of built-in toolbox.
func FS() fs.FS { return files }
