package fuzz

import (
	"hash/fnv"
	"testing"

	"github.com/gorep/robots"
)

// generatedPerFile is the number of generated questions per real file that
// are put to both the robots package and the oracle.
const generatedPerFile = 30

// TestRealWorld checks the robots package on real robots.txt files: it must
// give the C++ reference's verdict on every question of
// realworld-verdicts.jsonl, and the oracle's answer on generated questions
// about each file.
func TestRealWorld(t *testing.T) {
	for _, c := range corpora(t) {
		prefix := "realworld/"
		if c.dir == localTestdata {
			prefix = "sample/"
		}
		var verdicts, generated, compared int
		skipped := make(map[string]int)
		for _, name := range c.files {
			t.Run(prefix+name, func(t *testing.T) {
				body := c.body(t, name)
				r := robots.Parse(body)
				o, oerr := NewOracle(body)
				for _, v := range c.verdicts[name] {
					verdicts++
					if got := r.Allowed(v.Agent, v.URL); got != v.Want {
						t.Errorf("%s: Allowed(%q, %q) = %t, want %t (C++ reference)", v.ID, v.Agent, v.URL, got, v.Want)
						reportVerdict(t, body, v, o, oerr)
					}
				}
				for _, q := range QueriesFor(body, seedOf(name), generatedPerFile) {
					generated++
					out := ask(r, o, oerr, q)
					if out.skip != "" {
						skipped[out.skip]++
						continue
					}
					compared++
					if out.disagree() || out.problem != "" {
						reportDisagreement(t, "realworld/"+name, body, q)
					}
				}
			})
		}
		t.Logf("%s: %d files, %d reference verdicts checked; %d generated questions, %d compared with the oracle, not asked: %s",
			c.dir, len(c.files), verdicts, generated, compared, formatCounts(skipped))
	}
}

// reportVerdict adds a minimised reproducer to a failed reference verdict
// when the oracle, which agrees with the reference there, can stand in for
// it while shrinking.
func reportVerdict(t *testing.T, body []byte, v verdict, o *Oracle, oerr error) {
	t.Helper()
	q := Query{Agents: []string{v.Agent}, URL: v.URL}
	if out := ask(robots.Parse(body), o, oerr, q); out.skip != "" || out.oracle != v.Want {
		t.Logf("the oracle cannot stand in for the reference here (%s): not minimised", out.skip)
		return
	}
	reportDisagreement(t, v.ID, body, q)
}

// seedOf derives a stable seed from a file name.
func seedOf(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
