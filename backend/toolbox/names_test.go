package toolbox

import (
	"regexp"
	"strings"
	"testing"
)

// TestNames_AsTheirRegexps: each check by hand says what the regexp it
// replaced said.
func TestNames_AsTheirRegexps(t *testing.T) {
	inputs := []string{"", "a", "read_file", "a-b", "1", "_x", "a b", "a.b", "é", "工具", "a\xff", strings.Repeat("a", 64), strings.Repeat("a", 65)}
	for c := range 128 {
		inputs = append(inputs, string(rune(c)), "a"+string(rune(c)))
	}
	name, env, unsafe := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`), regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`), regexp.MustCompile(`[^A-Za-z0-9_-]`)
	for _, in := range inputs {
		if got, want := validName(in), name.MatchString(in); got != want {
			t.Errorf("validName(%q) = %v, the regexp %v", in, got, want)
		}
		if got, want := isEnvVarName(in), env.MatchString(in); got != want {
			t.Errorf("isEnvVarName(%q) = %v, the regexp %v", in, got, want)
		}
		if got, want := strings.Map(safeNameRune, in), unsafe.ReplaceAllString(in, "_"); got != want {
			t.Errorf("safe name of %q = %q, the regexp %q", in, got, want)
		}
	}
}
