package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"hermes/backend/i18n"
)

func noop(context.Context, Env, json.RawMessage) (string, error) { return "ok", nil }

func rawTool(name, params string) Tool {
	return Tool{Name: name, Description: "Does a thing.", Parameters: json.RawMessage(params), Risk: RiskRead, Run: noop}
}

func TestRegistry_RegisterErrors(t *testing.T) {
	cases := []struct {
		name string
		tool Tool
		want string // part of the reason
	}{
		{"space in name", rawTool("read file", `{"type":"object"}`), "name"},
		{"empty name", rawTool("", `{"type":"object"}`), "name"},
		{"name too long", rawTool(strings.Repeat("a", 65), `{"type":"object"}`), "name"},
		{"empty description", func() Tool { t := rawTool("t", `{"type":"object"}`); t.Description = " "; return t }(), "description"},
		{"unknown risk", func() Tool { t := rawTool("t", `{"type":"object"}`); t.Risk = "delete"; return t }(), "risk"},
		{"no run function", func() Tool { t := rawTool("t", `{"type":"object"}`); t.Run = nil; return t }(), "run function"},
		{"negative timeout", func() Tool { t := rawTool("t", `{"type":"object"}`); t.Timeout = -1; return t }(), "timeout"},
		{"no schema", rawTool("t", ``), "schema"},
		{"schema not JSON", rawTool("t", `{"type":`), "schema"},
		{"schema not an object", rawTool("t", `{"type":"string"}`), `"object"`},
		{"unknown property type", rawTool("t", `{"type":"object","properties":{"a":{"type":"text"}}}`), `unknown type "text"`},
		{"enum of another type", rawTool("t", `{"type":"object","properties":{"a":{"type":"integer","enum":["x"]}}}`), "enum"},
		{"empty enum", rawTool("t", `{"type":"object","properties":{"a":{"type":"string","enum":[]}}}`), "enum is empty"},
		{"minimum above maximum", rawTool("t", `{"type":"object","properties":{"a":{"type":"integer","minimum":3,"maximum":1}}}`), "minimum"},
		{"required not a property", rawTool("t", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`), `"b"`},
		{"default of another type", rawTool("t", `{"type":"object","properties":{"a":{"type":"integer","default":"x"}}}`), "default"},
		{"bad items", rawTool("t", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"strng"}}}}`), "strng"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := NewRegistry().Register(c.tool)
			if !errors.Is(err, ErrInvalidTool) {
				t.Fatalf("Register = %v, want ErrInvalidTool", err)
			}
			// The cause under the translated message carries the reason.
			if reason := errors.Unwrap(err).Error(); !strings.Contains(reason, c.want) {
				t.Errorf("reason %q does not mention %q", reason, c.want)
			}
			// In Chinese, the reason too; only encoding/json's own words stay English.
			if msg := i18n.MessageIn(i18n.ZH, err); !strings.Contains(msg, "无法注册") ||
				c.name != "schema not JSON" && (strings.Contains(msg, " is ") || strings.Contains(msg, "the ") || strings.Contains(msg, "must ")) {
				t.Errorf("zh-CN message %q", msg)
			}
		})
	}
}

func TestRegistry_Duplicate(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(rawTool("a", `{"type":"object"}`)); err != nil {
		t.Fatal(err)
	}
	err := r.Register(rawTool("a", `{"type":"object","properties":{}}`))
	if !errors.Is(err, ErrDuplicateTool) {
		t.Fatalf("second Register = %v, want ErrDuplicateTool", err)
	}
	if !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("error %q does not name the tool", err)
	}
	if got := r.Names(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("Names after a refused duplicate = %v", got)
	}
}

func TestRegistry_OrderAndDefs(t *testing.T) {
	r := NewRegistry()
	for _, tool := range FileTools(nil) {
		if err := r.Register(tool); err != nil {
			t.Fatalf("Register(%s): %v", tool.Name, err)
		}
	}
	if err := r.Register(rawTool("zeta", "{\n  \"type\": \"object\"\n}")); err != nil {
		t.Fatal(err)
	}
	want := []string{"list_files", "read_file", "write_file", "zeta"}
	if got := r.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	defs := r.Defs()
	for i, d := range defs {
		tools := r.Tools()
		if d.Name != want[i] || tools[i].Name != want[i] || d.Description == "" {
			t.Errorf("Defs[%d] = %s, Tools[%d] = %s, want %s", i, d.Name, i, tools[i].Name, want[i])
		}
		if !json.Valid(d.Parameters) || strings.ContainsAny(string(d.Parameters), "\n ") && d.Name == "zeta" {
			t.Errorf("Defs[%d].Parameters = %s, want compact JSON", i, d.Parameters)
		}
	}
	if tool, ok := r.Get("read_file"); !ok || !tool.ReadOnly() {
		t.Errorf("Get(read_file) = %v, %v", tool.Name, ok)
	}
	if tool, ok := r.Get("write_file"); !ok || tool.ReadOnly() {
		t.Errorf("write_file is read-only or missing")
	}
	if _, ok := r.Get("nope"); ok {
		t.Errorf("Get(nope) found a tool")
	}
}

// TestRegistry_Concurrent is meant for -race: registering while others read
// and prepare calls must neither race nor lose a tool.
func TestRegistry_Concurrent(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(rawTool("base", `{"type":"object","properties":{"n":{"type":"integer"}}}`)); err != nil {
		t.Fatal(err)
	}
	const writers, readers = 8, 8
	var wg sync.WaitGroup
	errs := make(chan error, writers*10+readers*50)
	for w := range writers {
		wg.Go(func() {
			for i := range 10 {
				if err := r.Register(rawTool(fmt.Sprintf("t%d_%d", w, i), `{"type":"object"}`)); err != nil {
					errs <- err
				}
			}
		})
	}
	for range readers {
		wg.Go(func() {
			for range 50 {
				p, err := r.Prepare("base", `{"n":"3"}`)
				if err != nil || string(p.Args) != `{"n":3}` {
					errs <- fmt.Errorf("Prepare = %s, %v", p.Args, err)
				}
				_ = r.Defs()
				_, _ = r.Get("base")
				if names := r.Names(); names[0] != "base" {
					errs <- fmt.Errorf("Names()[0] = %s, want the first registered tool", names[0])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(r.Names()); n != 1+writers*10 {
		t.Errorf("%d tools registered, want %d", n, 1+writers*10)
	}
}

// TestRegistry_FuncSchemaParsedOnFirstCall: a schema Func built and checked
// is not parsed again when the tool registers, only when it is first
// called, where it validates as before; a Func tool whose Parameters were
// replaced is parsed (and refused) at once.
func TestRegistry_FuncSchemaParsedOnFirstCall(t *testing.T) {
	r := NewRegistry()
	tools := append(FileTools(nil), ExecuteCommand(0, 0, nil), ReadArtifactTool())
	for _, tool := range tools {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
		if e := r.byName[tool.Name]; e.schema != nil {
			t.Fatalf("%s: parsed at Register", tool.Name)
		}
		// What the first call will parse is a schema Register would take.
		if _, err := parseSchema(tool.Parameters); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
	}
	if _, err := r.Prepare("read_file", `{"path":"a.md","limit_lines":0}`); err == nil || !strings.Contains(err.Error(), "limit_lines") {
		t.Fatalf("limit_lines below its minimum: %v", err)
	}
	p, err := r.Prepare("read_file", `{"path":"a.md","limit_lines":"5"}`)
	if err != nil || string(p.Args) != `{"limit_lines":5,"path":"a.md"}` || !p.Repaired {
		t.Fatalf("Prepare = %s, repaired %v, %v", p.Args, p.Repaired, err)
	}
	if r.byName["read_file"].schema == nil || r.byName["list_files"].schema != nil {
		t.Fatal("only the tool called has its schema parsed")
	}

	changed := ReadArtifactTool()
	changed.Name, changed.Parameters = "changed", json.RawMessage(`{"type":"string"}`)
	if err := r.Register(changed); !errors.Is(err, ErrInvalidTool) {
		t.Fatalf("a Func tool with replaced parameters registered: %v", err)
	}
}
