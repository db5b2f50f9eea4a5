package semdiff

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

// manyAgents returns a file of n groups, each naming its own crawler
// (aa, ab, ...) and disallowing prefix followed by its number.
func manyAgents(n int, prefix string) *robots.Robots {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "User-agent: a%c%c\nDisallow: /%s%d\n", 'a'+i/26, 'a'+i%26, prefix, i)
	}
	return robots.Parse([]byte(b.String()))
}

// TestDecisionBudget checks that Compare stops comparing verdicts once it
// has made maxDecisions decisions, and says so in Report.Complete.
func TestDecisionBudget(t *testing.T) {
	old, new := manyAgents(40, "p"), manyAgents(40, "q")
	tests := []struct {
		name         string
		budget       int
		wantComplete bool
		wantAgents   int
	}{
		{"enough work", 5_000_000, true, 40},
		{"too little work", 500, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(b int) { maxDecisions = b }(maxDecisions)
			maxDecisions = tt.budget
			r := Compare(old, new, Options{Agents: []string{}})
			got := []any{r.Complete, len(r.Agents) >= tt.wantAgents && (tt.wantAgents > 0 || len(r.Agents) < 40)}
			if diff := cmp.Diff([]any{tt.wantComplete, true}, got); diff != "" {
				t.Errorf("complete, agents as expected (-want +got):\n%s (%d agents)", diff, len(r.Agents))
			}
		})
	}
}

// allocated returns the bytes that f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileBudgets checks that Compare stays within tens of megabytes on
// files made to blow up each part of its work, and says which budget cut
// the answer. A 20 KB rule of 10,000 wildcards made 400 MB of witnesses
// (316 MB resident in robotstxt diff, 3.1 s); 30,000 floating wildcard
// rules in one group took seconds of decisions.
func TestHostileBudgets(t *testing.T) {
	wild := func(c byte) *robots.Robots {
		return robots.Parse([]byte("User-agent: *\nDisallow: /" + strings.Repeat("*"+string(c), 10_000) + "\n"))
	}
	floating := func(seed uint64) *robots.Robots {
		rng := rand.New(rand.NewPCG(seed, 1))
		word := func() string { return randomWord(rng, 1+rng.IntN(3)) }
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for b.Len() < 500<<10 {
			fmt.Fprintf(&b, "Disallow: /*%s*%s*%s\n", word(), word(), word())
		}
		return robots.Parse([]byte(b.String()))
	}
	tests := []struct {
		name     string
		old, new *robots.Robots
		want     []string
	}{
		{"long-wildcard-rule", wild('a'), wild('b'), []string{LimitPatterns, LimitWildcards}},
		{"floating-rules", floating(0), floating(1), []string{LimitDecisions}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r *Report
			if n := allocated(func() { r = Compare(tt.old, tt.new, Options{}) }); n > 100<<20 {
				t.Errorf("Compare allocated %d MB, want at most 100", n>>20)
			}
			if r.Complete || !slices.Equal(r.Limits, tt.want) {
				t.Errorf("Compare: Complete = %t, Limits = %q; want false, %q", r.Complete, r.Limits, tt.want)
			}
		})
	}
}

// randomWord returns a word of n bytes over "abc".
func randomWord(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "abc"[rng.IntN(3)]
	}
	return string(b)
}
