package backend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rule forbids the packages that from matches to import those that to
// matches, but for the packages in except. A pattern ending in "/..." is a
// package and every package below it.
type rule struct {
	from, to string
	except   []string
	why      string
}

// rules are docs/architecture.md's "never imports", as data.
var rules = []rule{
	{from: "hermes/backend/...", to: "github.com/wailsapp/...", why: "backend/ runs headless; only app/ and the root's desktop.go touch Wails"},
	{from: "hermes/backend/...", to: "hermes/app/...", why: "app/ is the window's layer over backend/, never the other way"},
	{from: "hermes/backend/...", to: "hermes", why: "the root package is the entry point"},
	{from: "hermes/backend/...", to: "hermes/bench/...", why: "benchmarks use backend/, never the other way"},
	{from: "hermes/...", to: "hermes/backend/server", except: []string{"hermes/backend/host"}, why: "the local API is served by host, the one way a process opens its home"},
	{from: "hermes/app", to: "hermes/backend/remote", why: "the window attaches to an owner through host"},
	{from: "hermes/app", to: "hermes/backend/homelock", why: "the window claims its home through host"},
	{from: "hermes/app", to: "hermes/backend/cli", why: "the window and the commands are two entry points over host"},
	{from: "hermes/backend/host", to: "hermes/backend/cli", why: "commands choose a mode and render; host knows none of them"},
	{from: "hermes/backend/host", to: "hermes/backend/bot", why: "the bot is a command over host, not part of it"},
	{from: "hermes/backend/server", to: "hermes/backend/host", why: "host serves the server, not the other way"},
	{from: "hermes/backend/remote", to: "hermes/backend/host", why: "host attaches through remote"},
	{from: "hermes/backend/homelock", to: "hermes/backend/host", why: "host claims through homelock"},
	{from: "hermes/backend/remote", to: "hermes/backend/server", why: "the client speaks the API's JSON; it does not need its handlers"},
	{from: "hermes/backend/remote", to: "hermes/backend/runner", why: "the client is runapi.Runs over HTTP, as the Manager is runapi.Runs in process: it needs none of the engine"},
	{from: "hermes/backend/bot", to: "hermes/backend/remote", why: "the bot owns its home and uses its runs (runapi.Runs)"},
	{from: "hermes/backend/runner", to: "hermes/backend/remote", why: "runner is the runs of one process; the client of another's is remote's"},
	{from: "hermes/backend/runner", to: "hermes/backend/homelock", why: "runner runs the runs of a home whoever holds its lock; host claims it"},
	{from: "hermes/backend/runner", to: "hermes/backend/bot", why: "the bot builds on runner"},
	{from: "hermes/backend/store/...", to: "hermes/backend/longterm", why: "long-term memory keeps its buckets in the store; the store knows nothing of it"},
	{from: "hermes/backend/callback", to: "hermes/backend/wecom/...", why: "callback checks are every platform's; WeCom's protocol builds on them"},
}

// below are packages that the processes build on and that know none of
// them: runapi, the runs of a home whichever process runs them, and
// homelock, which process owns a home and how to reach it.
var below = map[string][]string{
	"hermes/backend/runapi": {
		"hermes/backend/runner", "hermes/backend/remote", "hermes/backend/homelock", "hermes/backend/server",
		"hermes/backend/host", "hermes/backend/cli", "hermes/backend/bot", "hermes/backend/cluster",
	},
	"hermes/backend/homelock": {
		"hermes/backend/runapi", "hermes/backend/runner", "hermes/backend/remote", "hermes/backend/server",
		"hermes/backend/cli", "hermes/backend/bot", "hermes/backend/cluster",
	},
}

// The domain: what a run is made of. None of it knows how a process holds
// its home or talks to people.
var domain = []string{
	"hermes/backend/agent", "hermes/backend/llm", "hermes/backend/event", "hermes/backend/contextmgr",
	"hermes/backend/runlog", "hermes/backend/store", "hermes/backend/longterm", "hermes/backend/toolbox", "hermes/backend/config",
	"hermes/backend/i18n", "hermes/backend/search", "hermes/backend/atomicfile", "hermes/backend/strread", "hermes/backend/vault",
	"hermes/backend/telemetry", "hermes/backend/pubsub",
	"hermes/backend/update", "hermes/backend/price", "hermes/backend/sandbox",
}

var processes = []string{
	"hermes/backend/runner", "hermes/backend/runapi", "hermes/backend/remote", "hermes/backend/homelock",
	"hermes/backend/server", "hermes/backend/host", "hermes/backend/cli", "hermes/backend/bot",
	"hermes/backend/api", "hermes/backend/cluster",
}

// platforms are the chat platforms' protocols: how a callback is checked
// and read, and how a reply goes back. A platform knows nothing of runs or
// sessions (bot is the Inbox it hands messages to), and the domain knows
// nothing of chat platforms.
var platforms = []string{
	"hermes/backend/chat", "hermes/backend/callback", "hermes/backend/chatapi", "hermes/backend/platforms",
	"hermes/backend/wecom", "hermes/backend/feishu", "hermes/backend/webhook",
}

func init() {
	for from, tos := range below {
		for _, to := range tos {
			rules = append(rules, rule{from: from, to: to, why: "the processes build on " + from + ", which knows none of them"})
		}
	}
	for _, d := range domain {
		for _, p := range processes {
			rules = append(rules, rule{from: d + "/...", to: p + "/...", why: "the domain knows nothing of the processes that run it"})
		}
		for _, p := range platforms {
			rules = append(rules, rule{from: d + "/...", to: p + "/...", why: "the domain knows nothing of chat platforms"})
		}
	}
	for _, pl := range platforms {
		for _, p := range processes {
			rules = append(rules, rule{from: pl + "/...", to: p + "/...", why: "a chat platform's protocol knows nothing of runs or sessions; bot is its Inbox"})
		}
		for _, d := range []string{"hermes/backend/agent", "hermes/backend/runlog", "hermes/backend/toolbox"} {
			rules = append(rules, rule{from: pl + "/...", to: d + "/...", why: "a chat platform's protocol knows nothing of runs"})
		}
	}
}

// A call is a function of a package that only some packages may call.
type call struct {
	pkg   string   // the import path of the function's package
	funcs []string // its names
	by    []string // the packages that may call them (a package's own calls are its own)
	why   string
}

// calls are docs/architecture.md's "only ... calls", as data. A package
// that only tests use (its name ends in "test") may call them too.
var calls = []call{
	{pkg: "hermes/backend/homelock", funcs: []string{"Claim"}, by: []string{"hermes/backend/host"},
		why: "no entry point claims a home by hand: open it with host.Open"},
	{pkg: "hermes/backend/remote", funcs: []string{"Dial"}, by: []string{"hermes/backend/host"},
		why: "no entry point attaches to an owner by hand: open the home with host.Open or host.Attach"},
	{pkg: "hermes/backend/cluster", funcs: []string{"Observe", "ObserveHome", "Open"}, by: []string{"hermes/backend/host"},
		why: "the window and hermes serve observe the cluster, and hermes bot joins it as a replica, through the host (host.Options.Cluster)"},
	{pkg: "hermes/backend/store", funcs: []string{"Open", "OpenWithin"}, by: []string{"hermes/backend/runner", "hermes/backend/host"},
		why: "hermes.db is opened by the runs that use it (runner) or through the host: a command opens it with host.OpenStore"},
}

func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// goPackage is one package's non-test files, parsed.
type goPackage struct {
	path  string
	files []*ast.File
}

// modulePackages parses every non-test Go file of the module (every build
// tag: a file for one platform is held to the rules too).
func modulePackages(t *testing.T) []goPackage {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	byDir := map[string]*goPackage{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "frontend" || name == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := "hermes"
		if dir != "." {
			pkg += "/" + filepath.ToSlash(dir)
		}
		if byDir[pkg] == nil {
			byDir[pkg] = &goPackage{path: pkg}
		}
		byDir[pkg].files = append(byDir[pkg].files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]goPackage, 0, len(byDir))
	for _, p := range byDir {
		out = append(out, *p)
	}
	if len(out) < 20 {
		t.Fatalf("found %d packages; is the test run from backend/?", len(out))
	}
	return out
}

// TestArchitecture_ImportRules holds every package to the import rules of
// docs/architecture.md.
func TestArchitecture_ImportRules(t *testing.T) {
	for _, p := range modulePackages(t) {
		for _, f := range p.files {
			for _, imp := range f.Imports {
				to, _ := strconv.Unquote(imp.Path.Value)
				for _, r := range rules {
					if matches(r.from, p.path) && matches(r.to, to) && !slices.Contains(r.except, p.path) {
						t.Errorf("%s imports %s: %s (docs/architecture.md)", p.path, to, r.why)
					}
				}
			}
		}
	}
}

// TestArchitecture_Calls holds every package to the "only ... calls" rules
// of docs/architecture.md: no entry point claims a home, attaches to its
// owner or opens hermes.db by hand.
func TestArchitecture_Calls(t *testing.T) {
	for _, p := range modulePackages(t) {
		if strings.HasSuffix(p.path, "test") {
			continue
		}
		for _, c := range calls {
			if p.path == c.pkg || slices.Contains(c.by, p.path) {
				continue
			}
			for _, f := range p.files {
				name := importName(f, c.pkg)
				if name == "" {
					continue
				}
				ast.Inspect(f, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && slices.Contains(c.funcs, sel.Sel.Name) {
						t.Errorf("%s calls %s.%s: %s (docs/architecture.md)", p.path, path.Base(c.pkg), sel.Sel.Name, c.why)
					}
					return true
				})
			}
		}
	}
}

// importName is the name f knows the package at importPath by, "" when f does
// not import it.
func importName(f *ast.File, importPath string) string {
	for _, imp := range f.Imports {
		if imp.Path.Value == strconv.Quote(importPath) {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return importPath[strings.LastIndex(importPath, "/")+1:]
		}
	}
	return ""
}

// unlinked are packages the binary must not link: Go runs every linked
// package's initialisation at the start of every process, whatever the
// command, and these register protobuf descriptors, gRPC's balancers,
// resolvers and logs, the SDK's own metrics, JSON Schema inference, and
// more (about 2, 0.8 and 0.5 ms of CPU in `hermes version`, 15 MB of the
// binary). telemetry makes its spans behind OpenTelemetry's API and writes
// OTLP by hand, toolbox speaks MCP itself; their tests use these packages.
var unlinked = []string{
	"google.golang.org/grpc/...", "google.golang.org/protobuf/...", "go.opentelemetry.io/proto/...",
	"go.opentelemetry.io/otel/exporters/...", "go.opentelemetry.io/otel/sdk/...", "github.com/nats-io/nats-server/...",
	"github.com/modelcontextprotocol/go-sdk/...", "github.com/google/jsonschema-go/...",
}

// TestArchitecture_StartsLight: neither build (headless and desktop) links
// a package of unlinked.
func TestArchitecture_StartsLight(t *testing.T) {
	for _, tags := range []string{"headless", ""} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "..").Output()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v", tags, err)
		}
		for line := range strings.Lines(string(out)) {
			fields := strings.Fields(line)
			if len(fields) == 0 {
				continue
			}
			for _, to := range fields[1:] {
				for _, u := range unlinked {
					if matches(u, to) && !slices.ContainsFunc(unlinked, func(u string) bool { return matches(u, fields[0]) }) {
						t.Errorf("with tags %q, %s imports %s, which every process would initialise at start (docs/architecture.md)", tags, fields[0], to)
					}
				}
			}
		}
	}
}
