package config

// The names a config gives, checked by hand: as regexps they were compiled
// in every process that checks a config, at more cost than the check.

// isEnvName reports whether s can name an environment variable: a letter
// or "_", then letters, digits and "_".
func isEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// isMCPName reports whether s can name an MCP server: 1 to 32 letters,
// digits, "_" and "-".
func isMCPName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// isCurrency reports whether s is a currency code: three capital letters.
func isCurrency(s string) bool {
	return len(s) == 3 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z' && 'A' <= s[2] && s[2] <= 'Z'
}

// isHeaderName reports whether s is an HTTP header's name: a token (RFC 9110).
func isHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '!' || c == '#' || c == '$' || c == '%' || c == '&' || c == '\'' || c == '*' || c == '+' ||
			c == '-' || c == '.' || c == '^' || c == '_' || c == '`' || c == '|' || c == '~':
		default:
			return false
		}
	}
	return s != ""
}
