package bench

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

// floorHeads returns, for each query of qs, the literal heads (the pattern
// up to its first '*' or '$') of the rules of the records that name the
// query's agent, or of the '*' records if none does: what the "floor"
// benchmark of benchAllowed tests the path against. It does not unescape
// patterns or merge anything; it is the shape of the least work a question
// takes, not an answer.
func floorHeads(r *robots.Robots, qs []query) [][]string {
	recs := r.Records()
	heads := make([][]string, len(qs))
	for i, q := range qs {
		heads[i] = headsOf(recordsFor(recs, q.agent))
	}
	return heads
}

// recordsFor returns the records of recs that name agent by its token,
// compared case-insensitively, or the '*' records if none does.
func recordsFor(recs []robots.Record, agent string) []robots.Record {
	var named, global []robots.Record
	for _, rec := range recs {
		for _, a := range rec.Agents {
			if strings.EqualFold(a.Token, agent) {
				named = append(named, rec)
				break
			}
			if a.Token == "*" {
				global = append(global, rec)
				break
			}
		}
	}
	if named != nil {
		return named
	}
	return global
}

// headsOf returns the literal heads of the rules of recs.
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

func TestFloorHeads(t *testing.T) {
	body := []byte(`user-agent: *
disallow: /all/
user-agent: FooBot
disallow: /foo*.png
allow: /foo/ok$
user-agent: other
user-agent: foobot/2.1
disallow: /more
`)
	qs := []query{{agent: "foobot"}, {agent: "Googlebot"}}
	got := floorHeads(robots.Parse(body), qs)
	want := [][]string{{"/foo", "/foo/ok", "/more"}, {"/all/"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("floorHeads (-want +got):\n%s", diff)
	}
}
