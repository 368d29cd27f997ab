package toolbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// The shells execute_command runs its command lines with.
const (
	ShellBash       = "bash"
	ShellPowerShell = "powershell"
)

// ParsedCommand is a command line as the approvals policy reads it.
type ParsedCommand struct {
	// Simple are the programs the line runs, in the order written: each
	// part of a pipeline, a list, a subshell, an && or || chain or a loop,
	// and what env, xargs, find -exec and their kind run.
	Simple []SimpleCommand
	// Risky say, for a person, what in the line is asked about whatever
	// the rules say: "command substitution $(…)", "bash -c, which runs a
	// command line of its own".
	Risky []string
}

// SimpleCommand is one program with its arguments.
type SimpleCommand struct {
	Text  string // as written, for a person to read
	Words []Word // the name and the arguments a pattern is matched against
	// More: the program gets further arguments when it runs (xargs's
	// input, the file names of find -exec … +), which only a pattern
	// ending in * covers.
	More bool
	// Inert: a builtin that starts nothing and writes only through its
	// redirections, which are checked (cd, echo, true, test): it needs no
	// rule of its own beside a command that matches one.
	Inert bool
	// risky: the command itself is why the line is always asked (sudo,
	// bash -c), so no pattern is offered for it.
	risky bool
}

// Word is one word of a simple command.
type Word struct {
	Text string
	// Dynamic: the shell works the word out when it runs ($X, $((…)),
	// ~, a glob, {a,b}, find's {}). Text is then as written, and only a
	// pattern's * matches it.
	Dynamic bool
	// split: it may become several words, or none (an unquoted expansion).
	split bool
}

// ParseCommand reads line as shell would run it in dir (absolute; ""
// when unknown), in a workspace (absolute; "" when unknown) outside which
// a redirection may not write. It never fails: what it cannot read is
// Risky.
func ParseCommand(line, shell, workspace, dir string) ParsedCommand {
	var out ParsedCommand
	control := line
	if shell == ShellPowerShell {
		control = strings.ReplaceAll(line, "\r\n", "\n") // Windows's line ends
	}
	if i := strings.IndexFunc(control, isControl); i >= 0 {
		out.risky(fmt.Sprintf("a control character (%U)", []rune(control[i:])[0]))
	}
	if shell == ShellPowerShell {
		parsePowerShell(line, &out)
		return out
	}
	r := &bashReader{src: line, workspace: workspace, cwd: dir, out: &out}
	if workspace == "" {
		r.cwd = ""
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		out.risky("a line the shell parser cannot read (" + err.Error() + ")")
		return out
	}
	syntax.Walk(f, r.visit)
	return out
}

func (p *ParsedCommand) risky(why string) {
	if !slices.Contains(p.Risky, why) {
		p.Risky = append(p.Risky, why)
	}
}

func isControl(r rune) bool { return r != '\t' && r != '\n' && unicode.IsControl(r) }

// bashReader walks a parsed bash line in the order it is written, keeping
// the directory its commands run in so that a redirection's file is known.
type bashReader struct {
	src       string
	workspace string
	cwd       string // "" once a cd went where it cannot follow
	stmt      *syntax.Stmt
	out       *ParsedCommand
}

func (r *bashReader) risky(format string, args ...any) { r.out.risky(fmt.Sprintf(format, args...)) }

func (r *bashReader) visit(node syntax.Node) bool {
	switch n := node.(type) {
	case *syntax.Stmt:
		r.stmt = n
		if n.Background || n.Coprocess || n.Disown {
			r.risky("a command run in the background (&), which outlives the call")
		}
		// A statement's redirections open before its command runs, in the
		// directory it starts in.
		for _, rd := range n.Redirs {
			r.redirect(rd)
		}
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			break
		}
		from := len(r.out.Simple)
		r.command(r.words(n.Args), r.text(n), false)
		if r.stmt != nil && r.stmt.Cmd == syntax.Command(n) && writes(r.stmt.Redirs) {
			// echo > file writes a file: it needs a rule like any writer.
			for i := from; i < len(r.out.Simple); i++ {
				r.out.Simple[i].Inert = false
			}
		}
	case *syntax.Assign:
		r.assign(n)
	case *syntax.DeclClause:
		r.decl(n)
	case *syntax.FuncDecl:
		r.risky("a function definition, which can stand in for any command")
	case *syntax.CoprocClause:
		r.risky("coproc, which runs a command in the background")
	case *syntax.CmdSubst:
		if n.Backquotes {
			r.risky("command substitution `…`")
		} else {
			r.risky("command substitution $(…)")
		}
	case *syntax.ProcSubst:
		r.risky("process substitution %s…)", n.Op)
	case *syntax.ParamExp:
		if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && strings.Contains(n.Exp.Word.Lit(), "P") {
			r.risky("prompt expansion ${…@P}, which runs commands")
		}
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		syntax.Walk(n, func(m syntax.Node) bool {
			if w, ok := m.(*syntax.Word); ok {
				if v, fixed := r.value(w); fixed && evaluates(v) {
					r.risky("text holding $(…) that bash evaluates, and so runs")
				}
			}
			return true
		})
	}
	return true
}

// evaluates reports whether text would run a command if bash evaluated it
// as arithmetic (a[$(cmd)]), as a variable's value or [[ … -eq … ]] do.
func evaluates(text string) bool { return strings.Contains(text, "$(") || strings.Contains(text, "`") }

// text is what a person reads of a call: its statement with the
// redirections, without a here-document's body.
func (r *bashReader) text(c *syntax.CallExpr) string {
	start, end := c.Pos().Offset(), c.End().Offset()
	if r.stmt != nil && r.stmt.Cmd == syntax.Command(c) {
		for _, rd := range r.stmt.Redirs {
			start = min(start, rd.Pos().Offset())
			end = max(end, rd.Word.End().Offset())
		}
	}
	return shorten(r.src[start:end])
}

// shorten keeps a long command's beginning for display.
func shorten(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\\\n", "")), " ")
	if rs := []rune(s); len(rs) > 200 {
		return string(rs[:199]) + "…"
	}
	return s
}

func (r *bashReader) words(ws []*syntax.Word) []Word {
	out := make([]Word, len(ws))
	for i, w := range ws {
		v, fixed := r.value(w)
		if fixed {
			out[i] = Word{Text: v}
			continue
		}
		out[i] = Word{Text: r.src[w.Pos().Offset():w.End().Offset()], Dynamic: true, split: splits(w)}
	}
	return out
}

// value is a word's text when the shell leaves it as written (quotes
// removed), and false when it works it out at run time.
func (r *bashReader) value(w *syntax.Word) (string, bool) {
	if splits(w) {
		return "", false
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", false
			}
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, in := range p.Parts {
				lit, ok := in.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(lit.Value, "$`\"\\\n"))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// splits reports whether a word may become several words or none when it
// runs: an unquoted expansion, a glob, a brace expansion.
func splits(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			return true
		case *syntax.Lit:
			if glob(p.Value) {
				return true
			}
		}
	}
	braces := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(braces) {
		return false
	}
	// {} and {a} are left as written; {a,b} and {1..3} expand.
	expands := false
	syntax.Walk(braces, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1) {
			expands = true
		}
		return !expands
	})
	return expands
}

// glob reports whether unquoted text holds a pattern the shell expands.
func glob(lit string) bool {
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.Contains(lit[i+1:], "]") {
				return true
			}
		}
	}
	return false
}

// unescape removes the backslashes bash removes: before any character
// outside quotes (special ""), before those of special inside double quotes.
func unescape(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (special == "" || strings.IndexByte(special, s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Commands that must be asked about whatever the rules say, and why.
var riskyCommands = map[string]string{
	"eval": "runs its arguments as a command line", "exec": "replaces the shell with another program",
	"source": "runs a file's commands in this shell", ".": "runs a file's commands in this shell",
	"sudo": "runs a command as another user", "su": "runs a command as another user", "doas": "runs a command as another user",
	"pkexec": "runs a command as another user", "run0": "runs a command as another user", "runuser": "runs a command as another user",
	"trap": "runs a command line when a signal comes", "alias": "changes what a command name runs",
	"enable": "loads or turns off shell builtins", "hash": "changes where a command name is found",
	"fc":   "runs commands again from the history",
	"pwsh": "runs a command line of its own", "powershell": "runs a command line of its own", "cmd": "runs a command line of its own",
}

// shells run a command line given with -c, or read one from their input.
var shells = []string{"sh", "bash", "rbash", "zsh", "dash", "ksh", "ksh93", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh"}

// inert builtins start nothing (see SimpleCommand.Inert).
var inert = []string{"cd", "pushd", "popd", "echo", "printf", "true", "false", ":", "test", "[", "pwd"}

// command adds one simple command, and what it runs in turn.
func (r *bashReader) command(words []Word, text string, more bool) {
	name, args := words[0], words[1:]
	if name.Dynamic {
		r.risky("a command name worked out at run time (%s)", name.Text)
		return
	}
	base := ""
	if name.Text != "" {
		base = strings.TrimSuffix(filepath.Base(name.Text), ".exe")
	}
	sc := SimpleCommand{Text: text, Words: words, More: more}
	if why, ok := riskyCommands[base]; ok {
		r.risky("%s, which %s", base, why)
		sc.risky = true
		r.out.Simple = append(r.out.Simple, sc)
		return
	}
	switch {
	case slices.Contains(shells, base):
		if why := shellReads(args); why != "" {
			r.risky("%s %s", base, why)
			sc.risky = true
		}
	case base == "busybox" && len(args) > 0:
		r.command(args, text, more)
		return
	case wrappers[base] != nil:
		inner, ok := r.unwrap(base, args)
		switch {
		case !ok:
			r.risky("%s with arguments whose command cannot be told before it runs", base)
			sc.risky = true
		case len(inner) > 0:
			r.command(inner, text, more || base == "xargs")
			return
		}
	case base == "find":
		defer r.find(args) // what it runs comes after find itself

	case base == "cd" || base == "pushd" || base == "popd":
		r.chdir(base, args)
	case base == "printf" && len(args) > 0 && strings.HasPrefix(args[0].Text, "-v"):
		// printf -v sets a variable, whose value arithmetic may run.
		r.risky("printf -v, which sets a variable")
	case base == "test" || base == "[":
		for _, a := range args {
			if evaluates(a.Text) {
				r.risky("text holding $(…) that bash evaluates, and so runs")
			}
		}
	}
	sc.Inert = slices.Contains(inert, base)
	r.out.Simple = append(r.out.Simple, sc)
}

// shellReads says how a shell's arguments make it run a command line it
// was given rather than a script file; "" when they name a script.
func shellReads(args []Word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch t := a.Text; {
		case a.Dynamic:
			return "with an argument worked out at run time"
		case t == "--" || t == "-":
			if i+1 < len(args) {
				return ""
			}
			return "reading commands from its input"
		case t == "--command":
			return "-c, which runs a command line of its own"
		case t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "--"):
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
			switch {
			case strings.ContainsRune(t, 'c'):
				return "-c, which runs a command line of its own"
			case strings.ContainsAny(t, "si"):
				return "reading commands from its input"
			case strings.ContainsAny(t, "oO"):
				i++
			}
		default:
			return ""
		}
	}
	return "reading commands from its input"
}

// assign checks a variable set by the line.
func (r *bashReader) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	if a.Naked && a.Value == nil {
		return // export NAME: no new value
	}
	value := ""
	if a.Value != nil {
		v, fixed := r.value(a.Value)
		if fixed && evaluates(v) {
			r.risky("a variable set to text holding $(…), which arithmetic would run")
		}
		value = v
	}
	if riskyVariable(a.Name.Value, value) {
		r.risky("setting %s, which changes what programs run or load", a.Name.Value)
	}
}

// riskyVariable reports whether setting name changes which programs run,
// or what they load or run in turn.
func riskyVariable(name, value string) bool {
	if strings.HasSuffix(name, "PAGER") && (value == "" || value == "cat") {
		return false
	}
	up := strings.ToUpper(name)
	for _, prefix := range []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "CARGO_"} {
		if strings.HasPrefix(up, prefix) {
			return true
		}
	}
	if strings.HasPrefix(up, "CGO_") && strings.HasSuffix(up, "FLAGS") {
		return true
	}
	return slices.Contains(riskyVariables, up)
}

var riskyVariables = []string{
	"PATH", "IFS", "ENV", "BASH_ENV", "CDPATH", "GLOBIGNORE", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS",
	"HOME", "ZDOTDIR", "XDG_CONFIG_HOME", "SHELL", "PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER",
	"LESSOPEN", "LESSCLOSE", "GCONV_PATH", "LOCPATH", "NLSPATH", "SSH_ASKPASS", "SUDO_ASKPASS",
	"NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB",
	"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONINSPECT",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "DOTNET_STARTUP_HOOKS",
	"GOFLAGS", "GOTOOLCHAIN", "GOENV", "GOROOT", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK", "GOINSECURE", "GOPRIVATE", "GONOPROXY",
	"CC", "CXX", "LD", "AR", "RUSTC", "RUSTC_WRAPPER", "RUSTFLAGS", "RUSTDOCFLAGS", "MAKEFLAGS", "MFLAGS",
}

// decl checks declare, export, local, readonly and typeset: their
// assignments are checked as any, their options and names here.
func (r *bashReader) decl(d *syntax.DeclClause) {
	if d.Variant.Value == "nameref" {
		r.risky("nameref, which makes one variable stand for another")
	}
	for _, a := range d.Args {
		if !a.Naked || a.Name != nil || a.Value == nil {
			continue
		}
		v, fixed := r.value(a.Value)
		name, value, assigns := strings.Cut(v, "=")
		switch {
		case !fixed:
			r.risky("%s with a name worked out at run time", d.Variant.Value)
		case (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+")) && strings.ContainsRune(v, 'n'):
			r.risky("%s -n, which makes one variable stand for another", d.Variant.Value)
		case assigns && riskyVariable(name, value):
			r.risky("setting %s, which changes what programs run or load", name)
		case assigns && evaluates(value):
			r.risky("a variable set to text holding $(…), which arithmetic would run")
		}
	}
}

// chdir follows the directory the next commands run in.
func (r *bashReader) chdir(name string, args []Word) {
	for len(args) > 0 && name == "cd" && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" && !args[0].Dynamic {
		args = args[1:]
	}
	// pushd -n, +N, -N work the directory stack: where they go is not in
	// the line.
	if name == "popd" || name == "pushd" && len(args) > 0 && strings.ContainsAny(args[0].Text[:min(1, len(args[0].Text))], "+-") || r.cwd == "" || len(args) != 1 || args[0].Dynamic || args[0].Text == "-" {
		r.cwd = ""
		return
	}
	if d := args[0].Text; filepath.IsAbs(d) {
		r.cwd = d
	} else {
		// Not joined with Clean: "link/.." is not where Clean says when
		// link is a symbolic link.
		r.cwd = r.cwd + string(filepath.Separator) + d
	}
}

// writes reports whether redirections write a file other than the null
// device.
func writes(redirs []*syntax.Redirect) bool {
	for _, rd := range redirs {
		switch lit := rd.Word.Lit(); {
		case rd.Op == syntax.RdrIn, rd.Op == syntax.Hdoc, rd.Op == syntax.DashHdoc, rd.Op == syntax.WordHdoc, rd.Op == syntax.DplIn:
		case rd.Op == syntax.DplOut && lit != "" && strings.Trim(lit, "0123456789-") == "":
		case lit != "/dev/null":
			return true
		}
	}
	return false
}

// redirect checks a file a redirection writes.
func (r *bashReader) redirect(rd *syntax.Redirect) {
	switch rd.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
		return
	}
	v, fixed := r.value(rd.Word)
	if !fixed {
		r.risky("a redirection to a file named at run time (%s)", r.src[rd.Word.Pos().Offset():rd.Word.End().Offset()])
		return
	}
	if rd.Op == syntax.DplOut && (v == "-" || strings.Trim(v, "0123456789") == "") {
		return // >&2, >&-: another descriptor
	}
	switch {
	case v == "/dev/null", v == "/dev/stdout", v == "/dev/stderr", strings.HasPrefix(v, "/dev/fd/"):
	case !r.inWorkspace(v):
		r.risky("a redirection to %s, outside the workspace", v)
	}
}

func (r *bashReader) inWorkspace(p string) bool {
	if r.workspace == "" {
		return false
	}
	if !filepath.IsAbs(p) {
		if r.cwd == "" {
			return false
		}
		p = r.cwd + string(filepath.Separator) + p
	}
	return within(r.workspace, p)
}

// within reports whether p, absolute, is under root once the symbolic
// links of its existing part are followed.
func within(root, p string) bool {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		rootReal = filepath.Clean(root)
	}
	real := resolve(p)
	if real == "" {
		return false
	}
	rel, err := filepath.Rel(rootReal, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolve follows p, absolute, one name at a time as the kernel would;
// from the first name that does not exist, the rest is taken as written.
// It returns "" for a dangling link.
func resolve(p string) string {
	vol := filepath.VolumeName(p)
	parts := strings.Split(filepath.ToSlash(p[len(vol):]), "/")
	cur := vol + string(filepath.Separator)
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if next, err = filepath.EvalSymlinks(next); err != nil {
				return ""
			}
		}
		cur = next
	}
	return cur
}
