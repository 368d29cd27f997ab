package toolbox

import (
	"io/fs"
	"slices"
	"strings"

	"hermes/backend/i18n"
	builtin "hermes/skills"
)

// builtinSkills are the manifests of the skills compiled into Hermes, as a
// skill.json would give them; a skill's instructions are skills/NAME/SKILL.md,
// embedded. They are Go values rather than JSON decoded at every start:
// decoding three small manifests was a third of opening the toolkit
// (docs/development.md, "Start"). Each tool they list is registered for its
// skill (Register) in the file named for it; TestBuiltinSkills_Valid checks
// them as ParseManifest checks a user's.
var builtinSkills = []Manifest{
	{
		Name:        SkillFiles,
		Description: "List, read and write files in the run's workspace. Use it whenever the task involves the files of the workspace.",
		Runner:      RunnerBuiltin,
		Tools:       listed("list_files", "read_file", "write_file", "read_artifact"),
	},
	{
		Name:        "shell",
		Description: "Run command lines in the workspace with the platform's shell (bash, or PowerShell on Windows). Use it to build, test, search or inspect what the file tools do not cover.",
		Runner:      RunnerBuiltin,
		Tools:       listed("execute_command"),
	},
	{
		Name:        "obsidian",
		Description: "Search, read, query and edit the notes of the user's Obsidian vault: sections, properties, links, renames, daily notes. Use it when the task is about the user's notes, a note by its name or [[wikilink]], tags, properties or backlinks.",
		Runner:      RunnerBuiltin,
		Offer:       OfferRelevant,
		Keywords: []string{"note", "vault", "wikilink", "backlink", "tag", "journal", "diary", "memo", "[[", "frontmatter",
			"笔记", "日记", "标签", "双链", "反向链接", "知识库", "备忘"},
		Tools: listed("search_notes", "read_note", "list_notes", "get_backlinks", "list_tags", "query_notes",
			"get_properties", "get_links", "append_note", "edit_note", "set_property", "create_note", "daily_note", "rename_note"),
	},
}

// builtinSetup says, for a built-in skill whose tools exist only once set
// up, what a person does to set it up: the message's key.
var builtinSetup = map[string]string{"obsidian": "toolbox.setup.obsidian"}

func listed(names ...string) []ManifestTool {
	out := make([]ManifestTool, len(names))
	for i, n := range names {
		out[i].Name = n
	}
	return out
}

// BuiltinSkills are the built-in skills' manifests, each a copy.
func BuiltinSkills() []Manifest {
	out := make([]Manifest, len(builtinSkills))
	for i, m := range builtinSkills {
		m.Keywords, m.Tools = slices.Clone(m.Keywords), slices.Clone(m.Tools)
		out[i] = m
	}
	return out
}

// builtinFound are the built-in skills as readTree finds a user's: each
// manifest with the instructions of its SKILL.md, if it has one.
func builtinFound() []found {
	out := make([]found, 0, len(builtinSkills))
	for _, m := range BuiltinSkills() {
		f := found{name: m.Name, source: SourceBuiltin, manifest: &m}
		if md, err := fs.ReadFile(builtin.FS(), m.Name+"/SKILL.md"); err == nil {
			in, err := ParseInstructions(md)
			f.instr = &in
			if err != nil {
				f.err, f.file = err, m.Name+"/SKILL.md"
			}
		}
		out = append(out, f)
	}
	return out
}

// listedTools are the tools the built-in skill named lists.
func listedTools(skill string) []string {
	var out []string
	for _, m := range builtinSkills {
		if m.Name == skill {
			for _, t := range m.Tools {
				out = append(out, t.Name)
			}
		}
	}
	return out
}

// Summary is the line a person reads of a skill or tool in a list (hermes
// skills list, tools list): for one of Hermes' own (builtin), in the UI's
// language, since its description is written for the model, in English;
// for a user's own, the first sentence of its description, the only text
// it has.
func Summary(name, description string, builtin bool) string {
	if key := "toolbox.summary." + name; builtin {
		if s := i18n.T(key); s != key {
			return s
		}
	}
	s := strings.Join(strings.Fields(description), " ")
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}
