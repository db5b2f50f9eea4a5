package robots

// Namings: the product tokens of the user-agent lines, with their records,
// sorted by token (case ignored) so that resolve makes one group a token.

import (
	"cmp"
	"slices"
)

// A naming is a (token, record) pair of a user-agent line, the token size
// bytes at off in the kept text (integers: no pointer for the collector).
type naming struct {
	off, size uint32
	rec       int32
}

// token returns the token of n.
func (n naming) token(text string) string { return text[n.off : n.off+n.size] }

// A nameRun is the namings of one token, names[lo:hi] once sorted, and
// the number of distinct records among them.
type nameRun struct{ lo, hi, recs int32 }

// sortNames sorts names by token, ignoring ASCII case (compareLower, the
// order lookupRef searches), then by record, stably (the first naming of a
// token is the first written), and returns the runs of each token and the
// order in which their groups are made: the tokens of most records first,
// which merging saves the most.
func sortNames(text string, names []naming, rs *resolveScratch) ([]nameRun, []int32) {
	slices.SortStableFunc(names, func(a, b naming) int {
		if c := compareLower(a.token(text), b.token(text)); c != 0 {
			return c
		}
		return cmp.Compare(a.rec, b.rec)
	})
	runs := rs.runs[:0]
	for i := 0; i < len(names); {
		rn := nameRun{lo: int32(i)}
		token := names[i].token(text)
		for rn.hi = int32(i); int(rn.hi) < len(names) && compareLower(names[rn.hi].token(text), token) == 0; rn.hi++ {
			if int(rn.hi) == i || names[rn.hi].rec != names[rn.hi-1].rec {
				rn.recs++
			}
		}
		runs = append(runs, rn)
		i = int(rn.hi)
	}
	order := rs.order[:0]
	for k := range runs {
		order = append(order, int32(k))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(runs[b].recs, runs[a].recs) })
	return runs, order
}

// addAgent adds the user-agent line of value v, kept at off, to the
// current record.
func (rs *resolveScratch) addAgent(v string, off uint32) {
	rec := int32(len(rs.first) - 1)
	token := agentToken(v)
	if token == "*" {
		if len(rs.global) == 0 || rs.global[len(rs.global)-1] != rec {
			rs.global = append(rs.global, rec)
		}
		return
	}
	rs.names = append(rs.names, naming{off, uint32(len(token)), rec})
}
