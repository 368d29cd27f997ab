package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The loads of one start share a parse while the file's bytes stay the
// same, and each gets a Config of its own: a caller's changes reach neither
// the next load nor another caller, and a changed file is read anew, even
// when it keeps its length.
func TestLoad_ParsesOnceWhileTheFileStaysTheSame(t *testing.T) {
	const text = `
[tools]
allow = ["read_file"]

[[tools.mcp]]
name = "notes"
command = "notes-server"
env = { NOTES_DIR = "/srv/notes" }

[prices."my-model"]
input = 1.0
output = 2.0
currency = "USD"
`
	path := writeConfig(t, text)
	first, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	first.Tools.Allow[0] = "changed"
	first.Tools.MCP[0].Env["NOTES_DIR"] = "changed"
	first.Prices["my-model"] = first.Prices["other"]
	first.Agent.MaxIterations = 99

	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _, err := parse(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, fresh) {
		t.Fatalf("a second load differs from a fresh parse:\n%+v\n%+v", again.Tools, fresh.Tools)
	}

	if err := os.WriteFile(path, []byte(strings.Replace(text, `"read_file"`, `"list_file"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	changed, err := Load(path)
	if err != nil || changed.Tools.Allow[0] != "list_file" {
		t.Fatalf("after the file changed: allow %q, %v", changed.Tools.Allow, err)
	}

	// A broken file is refused at each load, until it is mended.
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = \"many\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := Load(path); err == nil {
			t.Fatal("a broken file loaded")
		}
	}
}

// clone copies every slice, map and pointer that Config holds, now and as
// it grows: each is filled, and none of the copy's may share the original's.
func TestClone_SharesNothing(t *testing.T) {
	var cfg Config
	fill(reflect.ValueOf(&cfg).Elem())
	c := clone(cfg)
	if !reflect.DeepEqual(c, cfg) {
		t.Fatal("the clone differs")
	}
	shared(t, "Config", reflect.ValueOf(c), reflect.ValueOf(cfg))
	if got := clone(Config{}); !reflect.DeepEqual(got, Config{}) {
		t.Fatalf("a zero Config's clone is %+v: nil must stay nil", got)
	}
}

// fill gives v a value in every field, one element in every slice and map.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem())
		v.Set(p)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}

func shared(t *testing.T, path string, a, b reflect.Value) {
	t.Helper()
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			shared(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
		}
	case reflect.Slice, reflect.Map, reflect.Pointer:
		if a.Pointer() == b.Pointer() {
			t.Errorf("%s is shared with the original", path)
			return
		}
		switch a.Kind() {
		case reflect.Slice:
			for i := range a.Len() {
				shared(t, path+"[]", a.Index(i), b.Index(i))
			}
		case reflect.Map:
			for it := a.MapRange(); it.Next(); {
				shared(t, path+"[]", it.Value(), b.MapIndex(it.Key()))
			}
		case reflect.Pointer:
			shared(t, path, a.Elem(), b.Elem())
		}
	}
}
