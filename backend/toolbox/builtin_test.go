package toolbox

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolNames are the names of tools, in order.
func toolNames(tools []Tool) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return names
}

// TestBuiltin_EachToolIsAFilePair: every built-in tool is NAME.go, which
// registers it from its init, and NAME.md, which is its description for
// the model as sent; load_skill, which the catalog makes, is a pair too.
func TestBuiltin_EachToolIsAFilePair(t *testing.T) {
	made := builtins(With{})
	if len(made) == 0 {
		t.Fatal("no built-in tool is registered")
	}
	for _, tool := range append(made, Tool{Name: LoadSkillTool}) {
		md, err := os.ReadFile(tool.Name + ".md")
		if err != nil {
			t.Errorf("%s has no description file: %v", tool.Name, err)
			continue
		}
		if _, err := os.Stat(tool.Name + ".go"); err != nil {
			t.Errorf("%s has no file of its own: %v", tool.Name, err)
		}
		want := strings.TrimRight(string(md), "\n")
		if tool.Name == ExecuteCommandName {
			_, shell := shellFor(runtime.GOOS)
			want = strings.Replace(want, "{shell}", shell, 1)
		}
		if tool.Name != LoadSkillTool && tool.Description != want {
			t.Errorf("%s's description is not %s.md:\n%s", tool.Name, tool.Name, tool.Description)
		}
	}
}

// TestBuiltin_MadeOnlyInTheirFiles: a tool of this package is made (Func)
// only in its own file, NAME.go embedding NAME.md, and registered only
// from an init; so a tool is added, and found, in one place.
func TestBuiltin_MadeOnlyInTheirFiles(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		pair := strings.TrimSuffix(name, ".go") + ".md"
		embeds := false
		for _, g := range f.Comments {
			for _, c := range g.List {
				embeds = embeds || c.Text == "//go:embed "+pair
			}
		}
		for _, decl := range f.Decls {
			fn, _ := decl.(*ast.FuncDecl)
			ast.Inspect(decl, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch callee(call) {
				case "Func":
					if fn != nil && fn.Name.Name == "Func" {
						break
					}
					if _, err := os.Stat(pair); err != nil || !embeds {
						t.Errorf("%s makes a tool (%s) but is not a tool's file: %s with //go:embed %s", name, fset.Position(call.Pos()), name, pair)
					}
				case "Register":
					if _, local := call.Fun.(*ast.Ident); local && (fn == nil || fn.Name.Name != "init") {
						t.Errorf("%s registers a tool outside an init (%s)", name, fset.Position(call.Pos()))
					}
				}
				return true
			})
		}
	}
}

// callee is the name a call calls, without its package.
func callee(call *ast.CallExpr) string {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		return fn.Sel.Name
	case *ast.IndexExpr: // Func[P](...)
		if id, ok := fn.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// TestBuiltin_NotListedOutsideTheRegistry: the places that give runs their
// tools make none by hand; they read Register's list (Open, Builtins).
func TestBuiltin_NotListedOutsideTheRegistry(t *testing.T) {
	byHand := []string{"Func", "FileTools", "ExecuteCommand", "ReadArtifactTool", "Tools"}
	for _, dir := range []string{"../runner", "../cli", "../bot", "../host", "../server", "../../app"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				if pkg != nil && (pkg.Name == "toolbox" || pkg.Name == "vault") && slices.Contains(byHand, sel.Sel.Name) {
					t.Errorf("%s makes tools by hand (%s.%s); register them instead (toolbox.Register) and read toolbox.Builtins", fset.Position(call.Pos()), pkg.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// TestBuiltin_ANewToolIsOfferedWithItsSkill: a tool registered for a
// built-in skill, which its manifest does not list, is offered by that
// skill after the tools it lists, by the catalog and by Builtins alike.
func TestBuiltin_ANewToolIsOfferedWithItsSkill(t *testing.T) {
	type args struct {
		Text string `json:"text" description:"Some text."`
	}
	for _, b := range []Builtin{
		{Skill: SkillFiles, Make: func(With) (Tool, bool) {
			return Func("count_lines", "Count the lines of a text.\n", RiskRead, func(_ context.Context, _ Env, a args) (string, error) {
				return strconv.Itoa(strings.Count(a.Text, "\n") + 1), nil
			}), true
		}},
		{Skill: "shell", Make: func(With) (Tool, bool) { return Tool{}, false }}, // lacks what it needs
	} {
		registerForTest(t, b)
	}

	wantFiles := []string{"list_files", "read_file", "write_file", "read_artifact", "count_lines"}
	if got := toolNames(Builtins(With{}, SkillFiles)); !slices.Equal(got, wantFiles) {
		t.Errorf("Builtins(files) = %v, want %v", got, wantFiles)
	}
	c := Load(t.Context(), Options{Builtin: true, GoTools: builtins(With{})})
	defer c.Close()
	skills := c.Skills()
	if s := findSkill(t, skills, "files"); s.Status != StatusLoaded || s.Problem != nil || !slices.Equal(s.Tools, wantFiles) {
		t.Errorf("files: %+v", s)
	}
	if s := findSkill(t, skills, "shell"); s.Status != StatusLoaded || s.Problem != nil || !slices.Equal(s.Tools, []string{ExecuteCommandName}) {
		t.Errorf("shell: %+v", s)
	}
	tool, ok := c.Registry().Get("count_lines")
	if !ok || tool.Description != "Count the lines of a text." {
		t.Fatalf("count_lines in the catalog: %v %q", ok, tool.Description)
	}
	if out, err := tool.Run(t.Context(), Env{}, []byte(`{"text":"a\nb"}`)); err != nil || out != "2" {
		t.Fatalf("count_lines = %q, %v", out, err)
	}
}

// registerForTest registers b until the test ends.
func registerForTest(t *testing.T, b Builtin) {
	t.Helper()
	registered.mu.Lock()
	n := len(registered.tools)
	registered.mu.Unlock()
	Register(b)
	t.Cleanup(func() {
		registered.mu.Lock()
		defer registered.mu.Unlock()
		registered.tools = slices.Delete(registered.tools, n, n+1)
	})
}
