package bench

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/floor"
)

// The floors: the least work a question takes, to read beside the
// libraries (doc.go says why each is the least). Neither is an answer: they
// count the heads that start the path, without precedence, escaping or
// wildcards.

// newFloorFile returns r in the layout of the honest floor: each token its
// user-agent lines name with the literal heads of the rules of the records
// that name it, and the heads of the records that name "*".
func newFloorFile(r *robots.Robots) *floor.File {
	recs := r.Records()
	f := &floor.File{Global: headsOf(globalRecords(recs))}
	for _, rec := range recs {
		for _, a := range rec.Agents {
			if tok := strings.ToLower(a.Token); a.Token != "*" {
				f.Add(tok, func() []string { return headsOf(namedRecords(recs, tok)) })
			}
		}
	}
	return f
}

// floorHeads returns, for each query of qs, the heads of its agent: what
// the match-only floor tests the path against, looked up beforehand.
func floorHeads(f *floor.File, qs []query) [][]string {
	heads := make([][]string, len(qs))
	for i, q := range qs {
		heads[i] = f.HeadsFor(q.agent)
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
			if diff := cmp.Diff(tt.want, f.HeadsFor(tt.agent)); diff != "" {
				t.Errorf("HeadsFor(%q) (-want +got):\n%s", tt.agent, diff)
			}
		})
	}
}

// TestFloorPath checks floor.Path on every URL the benchmarks ask, against
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
			if got := floor.Path(tt.url); got != tt.want {
				t.Errorf("floor.Path(%q) = %q, want %q", tt.url, got, tt.want)
			}
		})
	}
}
