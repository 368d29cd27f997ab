package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

type searchFilter struct {
	Folder string `json:"folder" description:"Folder to search in."`
}

type paging struct {
	Page int `json:"page" default:"1"`
}

type searchArgs struct {
	Query   string             `json:"query" description:"Words to look for." minLength:"1"`
	Since   string             `json:"since,omitempty" format:"date" description:"Only notes changed on or after this day."`
	Sort    string             `json:"sort" enum:"relevance,date" default:"relevance" description:"Order of the results."`
	Limit   int                `json:"limit" default:"10" minimum:"1" maximum:"50"`
	Tags    []string           `json:"tags,omitempty" enum:"work, home" description:"Only notes with these tags."`
	Exact   *bool              `json:"exact" required:"false"`
	Score   float64            `json:"score,omitempty" required:"true"`
	Filter  searchFilter       `json:"filter"`
	Count   uint               `json:"count,omitempty"`
	Weights map[string]float64 `json:"weights,omitempty"`
	When    time.Time          `json:"when,omitempty"`
	Hidden  string             `json:"-"`
	paging
	internal int //nolint:unused // the schema must leave an unexported field out
}

func TestFunc_SchemaFromTags(t *testing.T) {
	tool := Func("search", "Search notes.", RiskRead, func(context.Context, Env, searchArgs) (string, error) { return "", nil })
	want, err := os.ReadFile(filepath.Join("testdata", "func_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	if err := json.Unmarshal(tool.Parameters, &got); err != nil {
		t.Fatalf("generated schema is not JSON: %v\n%s", err, tool.Parameters)
	}
	if err := json.Unmarshal(want, &wantV); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("schema mismatch\n got: %s\nwant: %s", tool.Parameters, want)
	}
	// The model reads properties in declaration order.
	s := string(tool.Parameters)
	last := -1
	for _, name := range []string{`"query"`, `"since"`, `"sort"`, `"limit"`, `"tags"`, `"exact"`, `"score"`, `"filter"`, `"count"`, `"weights"`, `"when"`, `"page"`} {
		i := strings.Index(s, name)
		if i < last {
			t.Errorf("property %s is out of declaration order in %s", name, s)
		}
		last = i
	}
	if tool.Name != "search" || tool.Description != "Search notes." || tool.Risk != RiskRead || !tool.ReadOnly() {
		t.Errorf("tool fields not carried: %+v", tool)
	}
}

func TestFunc_DefaultsReachTheFunction(t *testing.T) {
	var got searchArgs
	tool := Func("search", "Search notes.", RiskRead, func(_ context.Context, _ Env, p searchArgs) (string, error) {
		got = p
		return "ok", nil
	})
	if _, err := tool.Run(t.Context(), Env{}, json.RawMessage(`{"query":"x","limit":7}`)); err != nil {
		t.Fatal(err)
	}
	if got.Query != "x" || got.Limit != 7 || got.Sort != "relevance" || got.Page != 1 {
		t.Errorf("arguments with defaults = %+v", got)
	}

	_, err := tool.Run(t.Context(), Env{}, json.RawMessage(`{"query":5}`))
	if ce, ok := err.(*CallError); !ok || !strings.Contains(ce.Message, `"query"`) {
		t.Errorf("ill-typed arguments gave %v, want a *CallError quoting the schema", err)
	}
}

func TestFunc_BadTagsPanic(t *testing.T) {
	cases := []struct {
		name string
		make func()
	}{
		{"default of the wrong type", func() {
			type p struct {
				N int `json:"n" default:"many"`
			}
			Func("t", "d", RiskRead, func(context.Context, Env, p) (string, error) { return "", nil })
		}},
		{"enum value of the wrong type", func() {
			type p struct {
				N int `json:"n" enum:"1,two"`
			}
			Func("t", "d", RiskRead, func(context.Context, Env, p) (string, error) { return "", nil })
		}},
		{"minimum above maximum", func() {
			type p struct {
				N int `json:"n" minimum:"5" maximum:"1"`
			}
			Func("t", "d", RiskRead, func(context.Context, Env, p) (string, error) { return "", nil })
		}},
		{"unsupported field type", func() {
			type p struct {
				C chan int `json:"c"`
			}
			Func("t", "d", RiskRead, func(context.Context, Env, p) (string, error) { return "", nil })
		}},
		{"bad required tag", func() {
			type p struct {
				S string `json:"s" required:"maybe"`
			}
			Func("t", "d", RiskRead, func(context.Context, Env, p) (string, error) { return "", nil })
		}},
		{"not a struct", func() {
			Func("t", "d", RiskRead, func(context.Context, Env, string) (string, error) { return "", nil })
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), `toolbox.Func("t")`) {
					t.Errorf("recovered %v, want a panic naming the tool", r)
				}
			}()
			c.make()
		})
	}
}

// A parameter struct's schema is made by reflection once: a tool made again
// with it (a run's file tools after the toolkit's) gets the same schema and
// defaults for a few allocations.
func TestFunc_SchemaMadeOncePerStruct(t *testing.T) {
	type params struct {
		Path  string `json:"path" description:"A file."`
		Limit int    `json:"limit" default:"3" minimum:"1" description:"Most lines."`
	}
	run := func(_ context.Context, _ Env, p params) (string, error) {
		return p.Path + strings.Repeat("!", p.Limit), nil
	}
	first := Func("first", "One.", RiskRead, run)
	var again Tool
	allocs := testing.AllocsPerRun(10, func() { again = Func("again", "Two.", RiskRead, run) })
	if allocs > 4 {
		t.Errorf("a tool made again allocates %.0f times, want the schema made once", allocs)
	}
	if string(again.Parameters) != string(first.Parameters) {
		t.Errorf("schema %s, want %s", again.Parameters, first.Parameters)
	}
	out, err := again.Run(context.Background(), Env{}, json.RawMessage(`{"path":"a"}`))
	if err != nil || out != "a!!!" {
		t.Errorf("Run = %q, %v; want the default limit applied", out, err)
	}
}

// writeJSON, which writes the tools' schemas, writes what json.Marshal
// writes, its short cuts included, so a run sends the schemas it sent.
func TestWriteJSON_AsMarshal(t *testing.T) {
	nested := &schema{Types: []string{"string"}, Description: "a \"quoted\" <b> & ünïcode\ttab"}
	for _, v := range []any{
		"plain words, digits 0-9 and punctuation: (a/b) {c} [d] ~!@#$%^*_+=|;:',.?",
		`quote " backslash \ `, "<html> & more", "line\nbreak", "del\x7f", "ünïcode 中文", "\u2028", "",
		"\b\f\n\r\t\x00\x01\x1f\u2029", "bad \xff\xfe utf-8 \xe4\xb8", "emoji 🙂 and \U0010ffff", "a\\\"b",
		true, false, []string{"a", "<b>"}, json.RawMessage(`{"x":1}`), nested, (*schema)(nil), 3.5,
		[]string{"a", "b c"}, []string{}, []string(nil), ptr(0), ptr(-7), ptr(20000), (*int)(nil),
		ptr(0.0), ptr(1.0), ptr(-2.5), ptr(1e-6), ptr(1e-7), ptr(1e20), ptr(1e21), ptr(123456789.125), (*float64)(nil),
	} {
		var b bytes.Buffer
		writeJSON(&b, v)
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("writeJSON(%#v) = %s, json.Marshal: %s", v, b.String(), want)
		}
	}
	for c := range 256 { // every byte, alone and between letters
		for _, s := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "b"} {
			var b bytes.Buffer
			writeJSON(&b, s)
			if want, _ := json.Marshal(s); b.String() != string(want) {
				t.Errorf("writeJSON(%q) = %s, json.Marshal: %s", s, b.String(), want)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }
