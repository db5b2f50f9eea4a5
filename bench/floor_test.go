package bench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

// The floors: the least work a question takes, to read beside the
// libraries (doc.go says why each is the least). Neither is an answer: they
// count the heads that start the path, without precedence, escaping or
// wildcards.

// A floorFile is a parsed file in the best layout for the honest floor:
// the distinct tokens its user-agent lines name, lower-cased, each with the
// literal heads of the rules of the records that name it, and the heads of
// the records that name "*".
type floorFile struct {
	tokens []string
	heads  [][]string
	global []string
}

// newFloorFile returns the floorFile of r.
func newFloorFile(r *robots.Robots) *floorFile {
	recs := r.Records()
	f := &floorFile{global: headsOf(globalRecords(recs))}
	for _, rec := range recs {
		for _, a := range rec.Agents {
			tok := strings.ToLower(a.Token)
			if a.Token == "*" || f.index(tok) >= 0 {
				continue
			}
			f.tokens = append(f.tokens, tok)
			f.heads = append(f.heads, headsOf(namedRecords(recs, tok)))
		}
	}
	return f
}

// index returns the index of the lower-cased token in f.tokens, or -1.
func (f *floorFile) index(token string) int {
	for i, t := range f.tokens {
		if t == token {
			return i
		}
	}
	return -1
}

// headsFor returns the heads that answer agent: those of the token equal
// to agent, ignoring ASCII case, else those of "*". It is a linear scan
// that compares lengths first, which on files naming a few agents (the
// benchmark files name at most 6) is cheaper than hashing the agent into a
// map: a map lookup must first lower-case the agent, then hash it, which
// alone costs about what this scan does.
func (f *floorFile) headsFor(agent string) []string {
	for i, t := range f.tokens {
		if len(t) == len(agent) && equalLower(t, agent) {
			return f.heads[i]
		}
	}
	return f.global
}

// equalLower reports whether s equals the lower-cased token t, ignoring
// ASCII case.
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

// floorPath returns the path, parameters and query of url, an absolute
// URL "scheme://authority/path" or a path: the minimal scan, which looks at
// each byte of the scheme and authority once, up to the first '/', '?' or
// ';' that does not start "://", then cuts at the first '#'. It does not
// handle what the benchmark URLs do not hold (a path that starts with '?',
// a '#' in the authority).
func floorPath(url string) string {
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

// countPrefixes returns how many of heads are prefixes of path: the match
// loop of both floors.
func countPrefixes(path string, heads []string) int {
	n := 0
	for _, h := range heads {
		if strings.HasPrefix(path, h) {
			n++
		}
	}
	return n
}

// floorHeads returns, for each query of qs, the heads of its agent: what
// the match-only floor tests the path against, looked up beforehand.
func floorHeads(f *floorFile, qs []query) [][]string {
	heads := make([][]string, len(qs))
	for i, q := range qs {
		heads[i] = f.headsFor(q.agent)
	}
	return heads
}

// namedRecords returns the records of recs that name the lower-cased
// token.
func namedRecords(recs []robots.Record, token string) []robots.Record {
	var out []robots.Record
	for _, rec := range recs {
		for _, a := range rec.Agents {
			if strings.EqualFold(a.Token, token) && a.Token != "*" {
				out = append(out, rec)
				break
			}
		}
	}
	return out
}

// globalRecords returns the records of recs that name "*".
func globalRecords(recs []robots.Record) []robots.Record {
	var out []robots.Record
	for _, rec := range recs {
		for _, a := range rec.Agents {
			if a.Token == "*" {
				out = append(out, rec)
				break
			}
		}
	}
	return out
}

// headsOf returns the literal heads (the pattern up to its first '*' or
// '$') of the rules of recs.
func headsOf(recs []robots.Record) []string {
	var heads []string
	for _, rec := range recs {
		for _, rule := range rec.Rules {
			p := rule.Pattern
			if i := strings.IndexAny(p, "*$"); i >= 0 {
				p = p[:i]
			}
			heads = append(heads, p)
		}
	}
	return heads
}

func TestFloorFile(t *testing.T) {
	body := []byte(`user-agent: *
disallow: /all/
user-agent: FooBot
disallow: /foo*.png
allow: /foo/ok$
user-agent: other
user-agent: foobot/2.1
disallow: /more
`)
	f := newFloorFile(robots.Parse(body))
	tests := []struct {
		agent string
		want  []string
	}{
		{"foobot", []string{"/foo", "/foo/ok", "/more"}},
		{"FOOBOT", []string{"/foo", "/foo/ok", "/more"}},
		{"OTHER", []string{"/more"}},
		{"Googlebot", []string{"/all/"}},
		{"foobo", []string{"/all/"}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, f.headsFor(tt.agent)); diff != "" {
				t.Errorf("headsFor(%q) (-want +got):\n%s", tt.agent, diff)
			}
		})
	}
}

// TestFloorPath checks floorPath on every URL the benchmarks ask, against
// the path given to temoto, and on the shapes it reads.
func TestFloorPath(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"path", "/a/b", "/a/b"},
		{"scheme", "https://example.com/a?b", "/a?b"},
		{"no-path", "https://example.com", "/"},
		{"query", "https://example.com/?s=x", "/?s=x"},
		{"fragment", "https://example.com/a#b/c", "/a"},
		{"port", "http://example.com:8080/a", "/a"},
		{"url-in-query", "http://x.com/a?u=http://y/", "/a?u=http://y/"},
	}
	for _, f := range realFiles {
		_, qs := load(t, f.file)
		for i, q := range qs {
			tests = append(tests, struct{ name, url, want string }{f.role + "/" + strconv.Itoa(i), q.url, q.path})
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := floorPath(tt.url); got != tt.want {
				t.Errorf("floorPath(%q) = %q, want %q", tt.url, got, tt.want)
			}
		})
	}
}
