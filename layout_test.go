package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestFirstQueriesRace asks a file of large sets (merged, split, global,
// with float, loose and headed runs) from many goroutines at once, from
// their very first question, while others quote rules, copy groups and
// read MemSize: each answer must be the one a file asked by one goroutine
// gives, and (under -race) no reader may see a set's rules while its first
// question lays them out in place.
func TestFirstQueriesRace(t *testing.T) {
	body := []byte(layoutBody())
	rng := rand.New(rand.NewPCG(8, 10))
	var paths []string
	for range 200 {
		paths = append(paths, fmt.Sprintf("/p%d/%dx%03dy%c", rng.IntN(20), rng.IntN(20), rng.IntN(500), 'a'+rng.IntN(26)))
	}
	agents := []string{"a", "b", "z"}
	want := map[string]Decision{}
	ref := Parse(body)
	for _, a := range agents {
		for _, p := range paths {
			want[a+" "+p] = ref.Decide(a, p)
		}
	}
	for round := range 5 {
		r := Parse(body)
		var start, wg sync.WaitGroup
		start.Add(1)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				for i := range paths {
					p, a := paths[(i*7+g*31)%len(paths)], agents[(i+g)%len(agents)]
					if got := r.Decide(a, p); got != want[a+" "+p] {
						t.Errorf("round %d: Decide(%q, %q) = %v, want %v", round, a, p, got, want[a+" "+p])
						return
					}
					if g%2 == 0 {
						if got := r.Group(a).Allowed(p); got != want[a+" "+p].Allowed {
							t.Errorf("round %d: Group(%q).Allowed(%q) = %t", round, a, p, got)
						}
					}
					_ = r.MemSize()
				}
			}()
		}
		start.Done()
		wg.Wait()
	}
}

// layoutBody returns a file of six records of 80 rules that name a (and,
// but the first, b; every other one, "*"), a fifth of them floating
// wildcard rules with an anchor, a fifth loose ones.
func layoutBody() string {
	rng := rand.New(rand.NewPCG(8, 9))
	var b strings.Builder
	for rec := range 6 {
		b.WriteString("user-agent: a\n")
		if rec > 0 {
			b.WriteString("user-agent: b\n") // b's records differ from a's: past the merge budget
		}
		if rec%2 == 0 {
			b.WriteString("user-agent: *\n")
		}
		for i := range 80 {
			kind := []string{"allow", "disallow"}[rng.IntN(2)]
			switch i % 4 {
			case 0:
				fmt.Fprintf(&b, "%s: /*x%03d*y\n", kind, rng.IntN(500)) // floating, with anchors
			case 1:
				fmt.Fprintf(&b, "%s: /*%c\n", kind, 'a'+rng.IntN(26)) // floating, loose
			default:
				fmt.Fprintf(&b, "%s: /p%d/%d\n", kind, rng.IntN(20), rng.IntN(20))
			}
		}
	}
	return b.String()
}
