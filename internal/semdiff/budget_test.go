package semdiff

import (
	"fmt"
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
