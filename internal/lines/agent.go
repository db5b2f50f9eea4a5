package lines

// The token of a user-agent line.

// AgentToken returns the token of the user-agent value v ("*" also before
// whitespace, "* foo", as the reference accepts): the longest prefix of
// letters, "-" and "_".
func AgentToken(v string) string {
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1])) {
		return "*"
	}
	return v[:TokenLen(v)]
}

// TokenLen returns the length of the product token that s starts with.
func TokenLen(s string) int {
	i := 0
	for i < len(s) && IsTokenChar(s[i]) {
		i++
	}
	return i
}
