package tsgen

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hermes/backend/api"
)

var write = flag.Bool("write", false, "rewrite frontend/src/api/types.gen.ts from backend/api")

const genPath = "../../../frontend/src/api/types.gen.ts"

// TestTypeScript_MatchesFile: the UI's wire types are the Go ones; after a
// change of a wire type, `go test ./backend/api/tsgen -write` writes them
// again, and the frontend's typecheck says whether the UI still agrees.
func TestTypeScript_MatchesFile(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(genPath)
	if err == nil && string(got) == want {
		return
	}
	if !*write {
		t.Fatalf("frontend/src/api/types.gen.ts is out of date (%v): run go test ./backend/api/tsgen -write", err)
	}
	if err := os.WriteFile(genPath, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvents_EveryTypeHasItsPayload: every event type event.go declares is
// listed in api.Events, so none reaches the UI untyped.
func TestEvents_EveryTypeHasItsPayload(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../../event/event.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || len(spec.Values) != 1 {
			return true
		}
		if id, ok := spec.Type.(*ast.Ident); ok && id.Name == "Type" {
			if lit, ok := spec.Values[0].(*ast.BasicLit); ok {
				v, _ := strconv.Unquote(lit.Value)
				declared = append(declared, v)
			}
		}
		return true
	})
	if len(declared) < 30 {
		t.Fatalf("found %d event types in event.go; has it moved?", len(declared))
	}
	var listed []string
	for _, p := range api.Events {
		listed = append(listed, string(p.Type))
	}
	if !slices.Equal(declared, listed) {
		t.Errorf("api.Events lists %v,\nevent.go declares %v", listed, declared)
	}
}

// TestGenerate_Fields: names, optional fields, enums and nesting follow
// the JSON tags.
func TestGenerate_Fields(t *testing.T) {
	out, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export type RunStatus = 'running' | 'finished'",
		"export const runStatuses: readonly RunStatus[] = ['running', ",
		// runlog.Summary's fields are promoted into RunSummary.
		"export interface RunSummary {\n  run_id: string\n  task: string\n",
		"  ended?: string\n", "  pending_approval?: ApprovalRequestedData\n", "  sample: boolean\n",
		"export interface StartRunRequest {\n  task: string\n  instructions?: string\n",
		"export interface ControlRequest {\n  kind: ControlKind\n",
		"export interface HermesEvent {\n  v: number\n  run_id: string\n  seq: number\n  time: string\n  iteration: number\n  type: EventType | string\n  data: unknown\n}",
		// A payload's own fields are all optional; what it holds follows its tags.
		"export interface SummaryUpdatedData {\n  summary?: string\n",
		"export interface Usage {\n  prompt_tokens: number\n",
		"  messages?: ChatMessage[]\n",
		"  'summary.updated': SummaryUpdatedData\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated TypeScript lacks %q", want)
		}
	}
}

type (
	inner struct {
		N int `json:"n"`
	}
	outer struct {
		Must   *inner `json:"must"`
		Maybe  *inner `json:"maybe,omitempty"`
		Hidden string `json:"-"`
		When   []inner
		hidden int //nolint:unused // the generator must skip an unexported field
	}
	otherInner struct {
		S string `json:"s"`
	}
	clash struct {
		A inner      `json:"a"`
		B otherInner `json:"b"`
	}
	anonymous struct {
		X struct{} `json:"x"`
	}
)

// TestGenerate_Rules: a pointer that is always sent may be null, fields
// without a JSON name keep their Go name, skipped fields are left out, and
// two Go types may not take one TypeScript name, nor a field be an unnamed
// struct.
func TestGenerate_Rules(t *testing.T) {
	out, err := generate([]api.Shape{{Name: "Outer", Value: outer{}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "export interface Outer {\n  must: inner | null\n  maybe?: inner\n  When: inner[]\n}\n\nexport interface inner {\n  n: number\n}\n"
	if !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant it to hold\n%s", out, want)
	}
	if _, err := generate([]api.Shape{{Name: "inner", Value: otherInner{}}, {Name: "Clash", Value: clash{}}}, nil, nil); err == nil || !strings.Contains(err.Error(), "both named inner") {
		t.Errorf("a name taken twice: %v", err)
	}
	if _, err := generate([]api.Shape{{Name: "Anonymous", Value: anonymous{}}}, nil, nil); err == nil {
		t.Error("an unnamed struct was declared")
	}
}
