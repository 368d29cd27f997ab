package agent

import (
	"slices"
	"testing"
)

func TestInstructions_WholeAndMarked(t *testing.T) {
	cases := []struct {
		text string
		want []string
		pref []bool
	}{
		{"Skip the daily notes; they repeat the project notes.", []string{"Skip the daily notes; they repeat the project notes."}, []bool{false}},
		{"Skip the daily notes. They repeat the project notes.", []string{"Skip the daily notes. They repeat the project notes."}, []bool{false}},
		{"Write dates as YYYY-MM-DD. Remember that I prefer tables.", []string{"Write dates as YYYY-MM-DD.", "Remember that I prefer tables."}, []bool{false, true}},
		{"- Always cite sources. Readers check them.\n- Be brief", []string{"Always cite sources. Readers check them.", "Be brief"}, []bool{true, false}},
		{"Please always answer in French", []string{"Please always answer in French"}, []bool{true}},
		{"请记住：我喜欢简洁的回答。以后都用中文。", []string{"请记住：我喜欢简洁的回答。", "以后都用中文。"}, []bool{true, true}},
		{"总是用表格列出项目；不要用列表。", []string{"总是用表格列出项目；不要用列表。"}, []bool{true}},
		{"Also list which daily notes mention each project", []string{"Also list which daily notes mention each project"}, []bool{false}},
		{"Find where the code calls remember() and why it always fails", []string{"Find where the code calls remember() and why it always fails"}, []bool{false}},
		{"下载以后解压到 data 目录", []string{"下载以后解压到 data 目录"}, []bool{false}},
		{"Use tabs from now on.", []string{"Use tabs from now on."}, []bool{true}},
		{"ok", nil, nil},
	}
	for _, c := range cases {
		got := instructions(c.text)
		if !slices.Equal(got, c.want) {
			t.Errorf("instructions(%q) = %q, want %q", c.text, got, c.want)
			continue
		}
		for i, s := range got {
			if statedPreference(s) != c.pref[i] {
				t.Errorf("statedPreference(%q) = %v, want %v", s, !c.pref[i], c.pref[i])
			}
		}
	}
}
