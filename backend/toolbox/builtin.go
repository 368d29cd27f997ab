package toolbox

import (
	"slices"
	"sync"
	"time"
)

// Builtin is a tool compiled into Hermes: a file NAME.go whose init calls
// Register, and NAME.md beside it, embedded, which is the tool's
// description for the model exactly as written (less its last line
// break). Every place that offers tools reads them from Register's list:
// the catalog (Open), a run built without a toolkit (runner.Build) and the
// context preview; a new tool is that pair and nothing else. docs/tools.md
// says how to write one.
type Builtin struct {
	// Skill is the built-in skill that offers the tool (builtinSkills).
	// Its manifest may list the tool to place it among the skill's tools;
	// those it does not list come after, in the order they were registered.
	Skill string
	// Make builds the tool with what the process gives; ok false leaves it
	// out, as the vault's tools are when no vault is set.
	Make func(With) (t Tool, ok bool)
}

// With is what a process gives its built-in tools.
type With struct {
	// Environ is the environment and sandbox of the processes tools start,
	// and the paths the file tools hide; nil: Hermes's own environment in
	// the default sandbox.
	Environ *Environ
	// Timeout bounds a command; 0: the run's tool timeout.
	Timeout time.Duration
	// OutputLimit is the bytes of a command's output kept, head and tail.
	OutputLimit int
	// Vault is the user's Obsidian vault, which backend/vault's tools open
	// on their first call (its *vault.Lazy); nil when none is set, which
	// leaves them out. skills cannot name the type: vault builds on toolbox.
	Vault any
}

// SkillFiles is the built-in skill every run has, with or without a
// toolkit: the file tools and read_artifact.
const SkillFiles = "files"

var registered struct {
	mu    sync.Mutex
	tools []Builtin
}

// Register adds a built-in tool. Its file calls it from init, so that the
// tool is offered wherever built-in tools are, once.
func Register(b Builtin) {
	registered.mu.Lock()
	defer registered.mu.Unlock()
	registered.tools = append(registered.tools, b)
}

// builtins makes every registered tool that w has what it needs for, in
// the order registered, each marked with its skill.
func builtins(w With) []Tool { return builtinsOf(w, "") }

// builtinsOf is builtins of one skill ("": of every skill).
func builtinsOf(w With, skill string) []Tool {
	registered.mu.Lock()
	list := slices.Clone(registered.tools)
	registered.mu.Unlock()
	var out []Tool
	for _, b := range list {
		if skill != "" && b.Skill != skill {
			continue
		}
		if t, ok := b.Make(w); ok {
			t.skill = b.Skill
			out = append(out, t)
		}
	}
	return out
}

// Builtins are the built-in tools of skill made with w, in the order the
// catalog offers them: those its manifest lists, as listed, then the
// others as registered.
func Builtins(w With, skill string) []Tool {
	return inSkillOrder(builtinsOf(w, skill), listedTools(skill))
}

// inSkillOrder puts tools in the order of listed, then the rest as they
// come.
func inSkillOrder(tools []Tool, listed []string) []Tool {
	out := make([]Tool, 0, len(tools))
	for _, name := range listed {
		if i := slices.IndexFunc(tools, func(t Tool) bool { return t.Name == name }); i >= 0 {
			out = append(out, tools[i])
		}
	}
	for _, t := range tools {
		if !slices.Contains(listed, t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// builtinNamed makes the built-in tool name with w; it panics when there
// is none, a mistake in the program.
func builtinNamed(w With, name string) Tool {
	for _, t := range builtins(w) {
		if t.Name == name {
			return t
		}
	}
	panic("skills: no built-in tool " + name)
}

// FileTools are the built-in tools that list, read and write files in the
// run's workspace: list_files, read_file and write_file, confined to
// Env.Workspace less what environ's sandbox hides from commands (nil: its
// defaults). Runs get them from Builtins; this is for registries a test or
// benchmark builds by hand.
func FileTools(environ *Environ) []Tool {
	var out []Tool
	for _, t := range Builtins(With{Environ: environ}, SkillFiles) {
		if t.Name != ReadArtifactName {
			out = append(out, t)
		}
	}
	return out
}

// ExecuteCommand is the execute_command tool (see execute_command.go) with
// these settings, for registries a test or benchmark builds by hand.
func ExecuteCommand(timeout time.Duration, limit int, environ *Environ) Tool {
	return builtinNamed(With{Environ: environ, Timeout: timeout, OutputLimit: limit}, ExecuteCommandName)
}

// ReadArtifactTool is the read_artifact tool (see read_artifact.go), for
// registries a test builds by hand.
func ReadArtifactTool() Tool { return builtinNamed(With{}, ReadArtifactName) }
