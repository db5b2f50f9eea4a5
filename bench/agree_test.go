package bench

import (
	"testing"

	"github.com/gorep/robots"
	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"
)

// TestAgree checks that the benchmarks compare answers, not just work:
// robots and grobotstxt (Google's parser ported to Go) must give the
// verdict of Google's reference parser on every benchmark query, and so
// must temoto, except on the queries listed in temotoDiffers, where its
// semantics differ from Google's.
func TestAgree(t *testing.T) {
	for _, f := range realFiles {
		body, qs := load(t, f.file)
		r := robots.Parse(body)
		tr, err := robotstxt.FromBytes(body)
		if err != nil {
			t.Errorf("realworld/%s: temoto: %v", f.file, err)
		}
		s := string(body)
		for _, q := range qs {
			if got := r.Allowed(q.agent, q.url); got != q.allow {
				t.Errorf("realworld/%s: robots: Allowed(%q, %q) = %t, want %t", f.file, q.agent, q.url, got, q.allow)
			}
			if got := grobotstxt.AgentAllowed(s, q.agent, q.url); got != q.allow {
				t.Errorf("realworld/%s: grobotstxt: AgentAllowed(%q, %q) = %t, want %t", f.file, q.agent, q.url, got, q.allow)
			}
			if tr == nil {
				continue
			}
			got := tr.FindGroup(q.agent).Test(q.path)
			why, known := temotoDiffers[f.file+" "+q.agent+" "+q.url]
			switch {
			case got != q.allow && !known:
				t.Errorf("realworld/%s: temoto: FindGroup(%q).Test(%q) = %t, want %t", f.file, q.agent, q.path, got, q.allow)
			case got == q.allow && known:
				t.Errorf("realworld/%s: temoto: FindGroup(%q).Test(%q) = %t, listed as differing (%s)", f.file, q.agent, q.path, got, why)
			}
		}
	}
}

// temotoDiffers lists the benchmark queries that temoto answers
// differently from Google's reference, by "file agent url", with the reason.
var temotoDiffers = map[string]string{
	"protego__www.usu.edu.txt Googlebot-Image https://example.com/soar/online2//page/2":             prefixAgent,
	"protego__www.usu.edu.txt Googlebot-Image https://example.com/nothinghere/calendar/submit.php":  prefixAgent,
	"protego__www.usu.edu.txt Googlebot-Image https://example.com/nothinghere/cms":                  prefixAgent,
	"protego__www.usu.edu.txt Googlebot-Image https://example.com/nothinghere/calendar/submit.php/": prefixAgent,
	"protego__www.usu.edu.txt Googlebot-Image https://example.com/nothinghere":                      prefixAgent,
}

// prefixAgent: temoto gives an agent the group whose name is the longest
// prefix of it, so "Googlebot-Image" gets the "Googlebot" group; Google
// matches the whole product token, finds no "Googlebot-Image" group and
// uses the "*" group.
const prefixAgent = "agent matched by prefix"

// TestSynthAgree checks that robots and grobotstxt agree on the queries of
// the generated files that grobotstxt is benchmarked on, so that the
// cost-growth figures compare like with like.
func TestSynthAgree(t *testing.T) {
	for _, kind := range synthKinds {
		for _, n := range ruleCounts {
			body, urls := synth(kind, n)
			body = capped(body)
			if len(body) > grobotMaxBytes {
				continue
			}
			r := robots.Parse(body)
			s := string(body)
			for _, u := range urls {
				want := grobotstxt.AgentAllowed(s, "Googlebot", u)
				if got := r.Allowed("Googlebot", u); got != want {
					t.Errorf("synth/%s-%d: Allowed(%q, %q) = %t, grobotstxt says %t", kind, n, "Googlebot", u, got, want)
				}
			}
		}
	}
}

// TestAllowedNoAllocs checks the benchmark queries allocate nothing in
// robots once warm, the "0 allocs per query" target: the questions that
// compile and lay out a large set allocate (warmQuestions).
func TestAllowedNoAllocs(t *testing.T) {
	for _, f := range realFiles {
		body, qs := load(t, f.file)
		r := robots.Parse(body)
		for _, q := range qs {
			for range warmQuestions {
				sinkBool = r.Allowed(q.agent, q.url)
			}
			if n := testing.AllocsPerRun(10, func() { sinkBool = r.Allowed(q.agent, q.url) }); n != 0 {
				t.Errorf("realworld/%s: Allowed(%q, %q): %v allocs, want 0", f.file, q.agent, q.url, n)
			}
		}
	}
}
