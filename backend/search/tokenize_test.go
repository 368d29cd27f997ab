package search

import (
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Hello, World! hello_world 2024", []string{"hello", "world", "hello", "world", "2024"}},
		{"Notes notes class is bus", []string{"note", "note", "class", "is", "bus"}},
		{"机器学习", []string{"机器", "器学", "学习"}},
		{"用 Go 写AI模型", []string{"用", "go", "写", "ai", "模型"}},
		{"Ünïcode ÉTÉ", []string{"ünïcode", "été"}},
		{"#project/alpha [[Note|alias]]", []string{"project", "alpha", "note", "alia"}},
		{"カタカナ", []string{"カタ", "タカ", "カナ"}},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa y", []string{"y"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
