package toolbox

// The names skills give, checked by hand: as regexps they were compiled in
// every process that loads the skills, at more cost than the check.

// validName reports whether s is what OpenAI-compatible endpoints accept as
// a function name: 1 to 64 letters, digits, "_" and "-".
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !nameByte(s[i]) {
			return false
		}
	}
	return true
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

// safeNameRune is r where a function name may hold it, else "_".
func safeNameRune(r rune) rune {
	if r < 0x80 && nameByte(byte(r)) {
		return r
	}
	return '_'
}

// isEnvVarName reports whether pass_env may name s: a letter or "_", then
// letters, digits and "_".
func isEnvVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}
