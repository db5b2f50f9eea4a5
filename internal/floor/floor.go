// Package floor is the least work of answering a robots.txt question, which
// the benchmarks of the core and of the bench module measure Allowed
// against (bench/doc.go says why it is the least). It is not an answer: it
// counts the literal heads that start the path, without precedence,
// escaping or wildcards.
package floor

import "strings"

// A File is a parsed file in the best layout for the floor: the distinct
// tokens its user-agent lines name, lower-cased, each with the literal
// heads of the rules that apply to it, and the heads of the records that
// name "*".
type File struct {
	Tokens []string
	Heads  [][]string
	Global []string
}

// Add adds the lower-cased token and its heads to f, unless f has it.
func (f *File) Add(token string, heads func() []string) {
	for _, t := range f.Tokens {
		if t == token {
			return
		}
	}
	f.Tokens = append(f.Tokens, token)
	f.Heads = append(f.Heads, heads())
}

// HeadsFor returns the heads that answer agent: those of the token equal
// to agent, ignoring ASCII case, else those of "*". It is a linear scan
// that compares lengths first, which on files naming a few agents (the
// benchmark files name at most 6) is cheaper than hashing the agent into a
// map: a map lookup must first lower-case the agent, then hash it, which
// alone costs about what this scan does.
func (f *File) HeadsFor(agent string) []string {
	for i, t := range f.Tokens {
		if len(t) == len(agent) && equalLower(t, agent) {
			return f.Heads[i]
		}
	}
	return f.Global
}

// equalLower reports whether s equals the lower-cased token t, ignoring
// ASCII case; s is as long as t.
func equalLower(t, s string) bool {
	for i := 0; i < len(t); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}

// Path returns the path, parameters and query of url, an absolute URL
// "scheme://authority/path" or a path: the minimal scan, which looks at
// each byte of the scheme and authority once, up to the first '/', '?' or
// ';' that does not start "://", then cuts at the first '#'. It does not
// handle what the benchmark URLs do not hold (a path that starts with '?',
// a '#' in the authority).
func Path(url string) string {
	for i := 0; i < len(url); i++ {
		if c := url[i]; c == '/' || c == '?' || c == ';' {
			if c == '/' && i > 0 && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
				i++
				continue
			}
			url = url[i:]
			if j := strings.IndexByte(url, '#'); j >= 0 {
				url = url[:j]
			}
			return url
		}
	}
	return "/"
}

// CountPrefixes returns how many of heads are prefixes of path: the match
// loop of the floors.
func CountPrefixes(path string, heads []string) int {
	n := 0
	for _, h := range heads {
		if strings.HasPrefix(path, h) {
			n++
		}
	}
	return n
}
