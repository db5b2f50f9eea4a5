package robots

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// addSeeds adds the files of testdata/realworld and testdata/golden to the
// seed corpus, each with the given extra arguments. Files over 32 KiB are
// left out: the fuzzer spends its time minimising them.
func addSeeds(f *testing.F, extra ...any) {
	files, _ := filepath.Glob("testdata/realworld/*")
	golden, _ := filepath.Glob("testdata/golden/*.txt")
	for _, file := range append(files, golden...) {
		body, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(body) <= 32<<10 {
			f.Add(append([]any{body}, extra...)...)
		}
	}
}

// probes returns URLs made from the file's own patterns, so that they match
// often, plus url.
func probes(r *Robots, url string) []string {
	urls := []string{url, "/", "/robots.txt", "https://example.com?q"}
	fill := strings.NewReplacer("*", "x", "$", "")
	for _, rec := range r.Records() {
		for _, rule := range rec.Rules {
			p := fill.Replace(rule.Pattern)
			urls = append(urls, p, p+"/index.html", "https://example.com"+p+"?a=b#c")
			if len(urls) > 40 {
				return urls
			}
		}
	}
	return urls
}

// equalRecords reports whether a and b hold the same records.
func equalRecords(a, b []Record) bool {
	return slices.EqualFunc(a, b, func(x, y Record) bool {
		return slices.Equal(x.Agents, y.Agents) && slices.Equal(x.Rules, y.Rules)
	})
}

// FuzzParse checks that parsing any input terminates without panic, is
// deterministic, and ignores what follows the first MaxSize bytes.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		r1, r2 := Parse(body), Parse(body)
		// cmp.Diff only to explain a difference: it is slow on large files.
		if a, b := r1.Records(), r2.Records(); !equalRecords(a, b) {
			t.Fatalf("Parse is not deterministic (-first +second):\n%s", cmp.Diff(a, b))
		}
		if len(body) > MaxSize {
			if a, b := r1.Records(), Parse(body[:MaxSize]).Records(); !equalRecords(a, b) {
				t.Fatalf("bytes after MaxSize changed the records (-all +capped):\n%s", cmp.Diff(a, b))
			}
		}
		for _, rec := range r1.Records() {
			for _, a := range rec.Agents {
				if a.Line < 1 || a.Token != "*" && strings.IndexFunc(a.Token, func(c rune) bool { return !isTokenChar(byte(c)) || c > 0x7f }) >= 0 {
					t.Fatalf("bad agent %+v", a)
				}
			}
		}
	})
}

// FuzzAllowed checks the fast matcher against the slow model of Google's
// reference parser, and that answers do not depend on the line-break
// convention or on anything past the first MaxSize bytes.
func FuzzAllowed(f *testing.F) {
	addSeeds(f, "Googlebot", "https://example.com/a/b?c=d")
	f.Add([]byte("user-agent: *\ndisallow: /*a*b$\nallow: /a/index.html"), "x", "/a/")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		r := Parse(body)
		urls := probes(r, url)
		// The slow model reads the whole file per question and costs
		// len(path) × len(pattern) allocations per rule: keep it to inputs
		// it answers in milliseconds.
		slow := len(body) <= 16<<10
		for i, u := range urls {
			if len(u) > 1024 {
				urls[i] = u[:1024]
			}
		}
		agents := []string{agent, "Googlebot", "*"}
		for _, rec := range r.Records() {
			for _, a := range rec.Agents {
				if len(agents) < 6 {
					agents = append(agents, a.Token)
				}
			}
		}
		for _, u := range urls {
			if got, want := pathOf(u), slowPathOf(u); got != want {
				t.Fatalf("pathOf(%q) = %q, slow model says %q", u, got, want)
			}
		}
		for _, a := range agents {
			for _, u := range urls {
				got := r.Allowed(a, u)
				if !slow {
					continue
				}
				if want := slowAllowed(body, []string{a}, u); got != want {
					t.Fatalf("Allowed(%q, %q) = %t, slow model says %t", a, u, got, want)
				}
				if d := r.Decide(a, u); d.Allowed != got {
					t.Fatalf("Decide(%q, %q) = %v, Allowed says %t", a, u, d, got)
				}
			}
		}
		if got, want := r.Group(agents...).Allowed(urls[0]), slowAllowed(body, agents, urls[0]); slow && got != want {
			t.Fatalf("Group(%q).Allowed(%q) = %t, slow model says %t", agents, urls[0], got, want)
		}

		// CRLF or CR line breaks instead of LF give the same answers.
		if len(body) < MaxSize/2 && !bytes.ContainsRune(body, '\r') {
			crlf := Parse(bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n")))
			cr := Parse(bytes.ReplaceAll(body, []byte("\n"), []byte("\r")))
			for _, u := range urls {
				want := r.Allowed(agent, u)
				if crlf.Allowed(agent, u) != want || cr.Allowed(agent, u) != want {
					t.Fatalf("Allowed(%q, %q) = %t with LF, differs with CRLF or CR", agent, u, want)
				}
			}
		}

		// What follows the first 500 KiB is ignored.
		if len(body) < 4096 {
			padded := append(append(append([]byte(nil), body...), '\n'), bytes.Repeat([]byte("#"), MaxSize)...)
			padded = append(padded, "\nuser-agent: *\nuser-agent: "+agent+"\ndisallow: /\n"...)
			p := Parse(padded)
			for _, u := range urls {
				if p.Allowed(agent, u) != r.Allowed(agent, u) {
					t.Fatalf("Allowed(%q, %q) changed by lines past MaxSize", agent, u)
				}
			}
		}
	})
}
