package toolbox

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// found is a skill folder as read, before its tools are built.
type found struct {
	dir      string // real folder, "" for a built-in skill
	source   string
	manifest *Manifest
	instr    *Instructions
	err      error // a mistake in the manifest or SKILL.md
	name     string
	file     string // the file the mistake is in, for the message
}

// readTree reads each folder of the directory root that holds a skill.json
// or a SKILL.md.
func readTree(root string) []found {
	fsys := os.DirFS(root)
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil // no skills folder yet
	}
	var out []found
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		f := found{name: e.Name(), dir: dir, source: dir}
		manifest, mErr := fs.ReadFile(fsys, path.Join(e.Name(), "skill.json"))
		instr, iErr := fs.ReadFile(fsys, path.Join(e.Name(), "SKILL.md"))
		if mErr != nil && iErr != nil {
			continue
		}
		if mErr == nil {
			m, err := ParseManifest(manifest)
			f.manifest = &m
			if err != nil {
				f.err, f.file = err, path.Join(e.Name(), "skill.json")
			}
		}
		if iErr == nil && f.err == nil {
			in, err := ParseInstructions(instr)
			f.instr = &in
			if err != nil {
				f.err, f.file = err, path.Join(e.Name(), "SKILL.md")
			}
		}
		if f.err == nil {
			switch {
			case f.manifest != nil:
				f.name = f.manifest.Name
			default:
				f.name = f.instr.Name
			}
		}
		out = append(out, f)
	}
	return out
}

func mcpFromConfig(m NamedMCP) found {
	return found{name: m.Name, source: "hermes.toml", manifest: &Manifest{
		Name: m.Name, Description: "Tools of the MCP server " + m.Name + ".", Runner: RunnerMCP, MCP: &m.Spec, Sandbox: &m.Asks,
	}}
}
