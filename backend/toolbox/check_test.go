package toolbox

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestCheckTools_Findings(t *testing.T) {
	tool := func(name, desc, params string) Tool {
		return Tool{Name: name, Description: desc, Parameters: json.RawMessage(params), Risk: RiskRead}
	}
	tools := []Tool{
		tool("good", "Use it when the user asks for a day's events. Returns one line per event.",
			`{"type":"object","properties":{"day":{"type":"string","format":"date","description":"The day."},"kind":{"type":"string","enum":["a","b"],"description":"Either a or b."}}}`),
		tool("vague", "Gets stuff.", `{"type":"object","properties":{}}`),
		tool("params", "Use it to book a room.",
			`{"type":"object","properties":{"room":{"type":"string"},"since":{"type":"string","description":"Start of the booking."},`+
				`"until":{"type":"string","description":"End, as YYYY-MM-DD."},"size":{"type":"string","description":"One of small, medium or large."},`+
				`"who":{"type":"object","description":"The guest.","properties":{"name":{"type":"string"}}}}}`),
		tool("find_notes", "Use it to search the notes of the vault by keywords and return matching notes with a snippet.", `{"type":"object","properties":{}}`),
		tool("search_notes", "Use it to search the notes of the vault by keywords and return the matching notes with snippets.", `{"type":"object","properties":{}}`),
	}
	got := map[string]bool{}
	for _, f := range CheckTools(tools) {
		key := f.Tool + " " + f.Kind + " " + f.Param + f.Other
		got[key] = true
		for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
			i18n.SetLang(lang)
			if msg := f.Message(); !strings.Contains(msg, f.Tool) || strings.Contains(msg, "%!") {
				t.Errorf("%s message of %s: %q", lang, key, msg)
			}
		}
		i18n.SetLang(i18n.EN)
	}
	want := []string{
		"vague no_when ",
		"params no_description room",
		"params no_format since",
		"params enum_unlisted size",
		"params no_description who.name",
		"find_notes overlap search_notes",
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing finding %q", w)
		}
	}
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	if len(got) != len(want) {
		slices.Sort(keys)
		t.Errorf("findings %q, want exactly %q", keys, want)
	}
}

func TestCheckTools_BuiltinsAreClean(t *testing.T) {
	if f := CheckTools(append(FileTools(nil), ExecuteCommand(0, 0, nil))); len(f) > 0 {
		for _, x := range f {
			t.Error(x.Message())
		}
	}
}
