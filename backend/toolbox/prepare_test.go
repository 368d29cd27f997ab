package toolbox

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type prepArgs struct {
	Path  string   `json:"path" description:"A path."`
	Count int      `json:"count,omitempty" minimum:"1" maximum:"100"`
	Ratio float64  `json:"ratio,omitempty"`
	Force bool     `json:"force,omitempty"`
	Mode  string   `json:"mode,omitempty" enum:"fast,slow"`
	Tags  []string `json:"tags,omitempty"`
	Sizes []int    `json:"sizes,omitempty"`
	Day   string   `json:"day,omitempty" format:"date"`
	At    string   `json:"at,omitempty" format:"date-time"`
	Name  string   `json:"name,omitempty" maxLength:"5"`
	Opts  struct {
		Deep bool `json:"deep"`
	} `json:"opts,omitzero"`
}

func prepRegistry(t *testing.T, got *prepArgs) *Registry {
	t.Helper()
	r := NewRegistry()
	tools := []Tool{
		Func("probe", "Probe a path.", RiskRead, func(_ context.Context, _ Env, p prepArgs) (string, error) {
			*got = p
			return "ok", nil
		}),
		Func("ping", "Answer pong.", RiskRead, func(context.Context, Env, struct{}) (string, error) { return "pong", nil }),
	}
	for _, tool := range tools {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestPrepare_Accepts(t *testing.T) {
	cases := []struct {
		name, tool, raw string
		want            string
		repaired        bool
	}{
		{"valid JSON is canonicalised", "probe", `{ "path": "a.txt", "count": 3 }`, `{"count":3,"path":"a.txt"}`, false},
		{"no HTML escaping", "probe", `{"path":"<a&b>"}`, `{"path":"<a&b>"}`, false},
		{"empty arguments mean {}", "ping", ``, `{}`, false},
		{"null arguments mean {}", "ping", `null`, `{}`, true},
		{"integral float is an integer", "probe", `{"path":"a","count":5.0}`, `{"count":5,"path":"a"}`, false},
		// Repairs of the JSON text itself.
		{"code fence", "probe", "```json\n{\"path\": \"a\"}\n```", `{"path":"a"}`, true},
		{"prose around", "probe", `Sure! Here are the arguments: {"path": "a"} Hope it helps.`, `{"path":"a"}`, true},
		{"trailing comma", "probe", `{"path": "a", "count": 2,}`, `{"count":2,"path":"a"}`, true},
		{"single quotes", "probe", `{'path': 'a'}`, `{"path":"a"}`, true},
		{"unquoted keys", "probe", `{path: "a", force: true}`, `{"force":true,"path":"a"}`, true},
		{"python literals", "probe", `{"path": "a", "force": True}`, `{"force":true,"path":"a"}`, true},
		// Coercions to the schema.
		{"string to integer", "probe", `{"path":"a","count":"5"}`, `{"count":5,"path":"a"}`, true},
		{"signed string to integer", "probe", `{"path":"a","count":"+05"}`, `{"count":5,"path":"a"}`, true},
		{"string float to integer", "probe", `{"path":"a","count":"7.0"}`, `{"count":7,"path":"a"}`, true},
		{"string to number", "probe", `{"path":"a","ratio":" 2.5 "}`, `{"path":"a","ratio":2.5}`, true},
		{"string to boolean", "probe", `{"path":"a","force":"true"}`, `{"force":true,"path":"a"}`, true},
		{"capitalised boolean", "probe", `{"path":"a","force":"False"}`, `{"force":false,"path":"a"}`, true},
		{"number to string", "probe", `{"path":42}`, `{"path":"42"}`, true},
		{"single value to array", "probe", `{"path":"a","tags":"x"}`, `{"path":"a","tags":["x"]}`, true},
		{"single string number to integer array", "probe", `{"path":"a","sizes":"3"}`, `{"path":"a","sizes":[3]}`, true},
		{"array items coerced", "probe", `{"path":"a","sizes":["1",2]}`, `{"path":"a","sizes":[1,2]}`, true},
		{"array as JSON text", "probe", `{"path":"a","tags":"[\"x\",\"y\"]"}`, `{"path":"a","tags":["x","y"]}`, true},
		{"object as JSON text", "probe", `{"path":"a","opts":"{\"deep\":true}"}`, `{"opts":{"deep":true},"path":"a"}`, true},
		{"null optional dropped", "probe", `{"path":"a","count":null}`, `{"path":"a"}`, true},
		{"enum case slip", "probe", `{"path":"a","mode":"FAST"}`, `{"mode":"fast","path":"a"}`, true},
		{"formats", "probe", `{"path":"a","day":"2024-02-29","at":"2024-02-29T10:00:00+08:00"}`, `{"at":"2024-02-29T10:00:00+08:00","day":"2024-02-29","path":"a"}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got prepArgs
			r := prepRegistry(t, &got)
			p, err := r.Prepare(c.tool, c.raw)
			if err != nil {
				t.Fatalf("Prepare(%s) = %v", c.raw, err)
			}
			if string(p.Args) != c.want || p.Repaired != c.repaired {
				t.Errorf("Prepare(%s) = %s repaired=%v, want %s repaired=%v", c.raw, p.Args, p.Repaired, c.want, c.repaired)
			}
			if p.Tool.Name != c.tool {
				t.Errorf("Prepared.Tool = %s", p.Tool.Name)
			}
			// What Prepare lets through must run.
			if _, err := p.Tool.Run(t.Context(), Env{}, p.Args); err != nil {
				t.Errorf("Run(%s) = %v", p.Args, err)
			}
		})
	}
}

func TestPrepare_TypedValuesReachTheTool(t *testing.T) {
	var got prepArgs
	r := prepRegistry(t, &got)
	p, err := r.Prepare("probe", `{path: 'notes', count: "12", ratio: "0.5", force: "true", tags: "x", opts: {deep: "true"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Tool.Run(t.Context(), Env{}, p.Args); err != nil {
		t.Fatal(err)
	}
	if got.Path != "notes" || got.Count != 12 || got.Ratio != 0.5 || !got.Force || len(got.Tags) != 1 || !got.Opts.Deep {
		t.Errorf("the tool received %+v", got)
	}
}

func TestPrepare_Refuses(t *testing.T) {
	cases := []struct {
		name, tool, raw string
		want            []string // parts of the message for the model
	}{
		{"unknown tool", "delete_all", `{}`, []string{`"delete_all"`, "probe, ping"}},
		{"missing required field", "probe", `{"count":1}`, []string{`missing required field "path"`}},
		{"empty arguments with a required field", "probe", ``, []string{`missing required field "path"`}},
		{"null required field", "probe", `{"path":null}`, []string{`missing required field "path"`}},
		{"enum violation", "probe", `{"path":"a","mode":"medium"}`, []string{`field "mode"`, `"medium" is not one of "fast", "slow"`}},
		{"not an integer", "probe", `{"path":"a","count":"many"}`, []string{`field "count": expected integer, got string "many"`}},
		{"fraction for an integer", "probe", `{"path":"a","count":2.5}`, []string{`field "count": expected integer, got number 2.5`}},
		{"below minimum", "probe", `{"path":"a","count":0}`, []string{`field "count": 0 is less than the minimum 1`}},
		{"above maximum", "probe", `{"path":"a","count":"101"}`, []string{`field "count": 101 is greater than the maximum 100`}},
		{"boolean for a string", "probe", `{"path":true}`, []string{`field "path": expected string, got boolean true`}},
		{"object in an array of strings", "probe", `{"path":"a","tags":{"x":1}}`, []string{`field "tags[0]": expected string, got an object`}},
		{"bad date", "probe", `{"path":"a","day":"2024/01/02"}`, []string{`field "day"`, "YYYY-MM-DD"}},
		{"bad date-time", "probe", `{"path":"a","at":"2024-01-02 10:00"}`, []string{`field "at"`, "RFC 3339"}},
		{"too long", "probe", `{"path":"a","name":"abcdef"}`, []string{`field "name": is 6 characters long, longer than the maximum 5`}},
		{"unknown field", "probe", `{"file_path":"a"}`, []string{`unknown field "file_path"`, `"path"`, `missing required field "path"`}},
		{"nested unknown field", "probe", `{"path":"a","opts":{"deep":true,"wide":1}}`, []string{`unknown field "opts.wide"`}},
		{"arguments not an object", "probe", `["a"]`, []string{"expected object, got an array"}},
		{"unrepairable JSON", "probe", `path is a.txt`, []string{"not valid JSON"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got prepArgs
			r := prepRegistry(t, &got)
			_, err := r.Prepare(c.tool, c.raw)
			var ce *CallError
			if !errors.As(err, &ce) {
				t.Fatalf("Prepare(%s) = %v, want a *CallError", c.raw, err)
			}
			for _, w := range c.want {
				if !strings.Contains(ce.Message, w) {
					t.Errorf("message %q\nlacks %q", ce.Message, w)
				}
			}
			if tool, ok := r.Get(c.tool); ok && !strings.Contains(ce.Message, string(tool.Parameters)) {
				t.Errorf("message %q\ndoes not include the schema", ce.Message)
			}
			if strings.Contains(ce.Message, "goroutine") || strings.Contains(ce.Message, "main.") {
				t.Errorf("message leaks Go internals: %q", ce.Message)
			}
		})
	}
}
