package robots

// Namings: the product tokens of the user-agent lines, with their records,
// sorted by token (case ignored) so that resolve makes one group for each
// token.

import (
	"cmp"
	"slices"
)

// A naming is a (token, record) pair of a user-agent line: the token as
// written, size bytes at off in the kept text, and the record (offsets and
// integers rather than a string, which would cost the garbage collector a
// pointer to scan).
type naming struct {
	off, size uint32
	record    int32
}

func (n *naming) rec() int32 { return n.record }

// newNaming returns the naming of token, at off in the kept text, in
// record rec.
func newNaming(token string, off uint32, rec int32) naming {
	return naming{off, uint32(len(token)), rec}
}

// compareNamings compares two namings by token, ignoring ASCII case
// (compareLower, the order lookupRef searches), then by record.
func compareNamings(text string, a, b *naming) int {
	if c := compareNames(text, a, b); c != 0 {
		return c
	}
	return cmp.Compare(a.record, b.record)
}

// compareNames compares the tokens of two namings, ignoring ASCII case.
func compareNames(text string, a, b *naming) int {
	return compareLower(text[a.off:a.off+a.size], text[b.off:b.off+b.size])
}

// A nameRun is the namings of one token, names[lo:hi] once sorted, and
// the number of distinct records among them.
type nameRun struct{ lo, hi, recs int32 }

// sortNames sorts names by token, ignoring ASCII case, then by record,
// stably (so that the first naming of a token is the first written), and
// returns the runs of each token and the order in which their groups are
// made: the tokens of most records first, since merging saves them the
// most.
func sortNames(text string, names []naming, rs *resolveScratch) ([]nameRun, []int32) {
	slices.SortStableFunc(names, func(a, b naming) int { return compareNamings(text, &a, &b) })
	runs := rs.runs[:0]
	for i := 0; i < len(names); {
		rn := nameRun{lo: int32(i)}
		for rn.hi = int32(i); int(rn.hi) < len(names) && compareNames(text, &names[rn.hi], &names[i]) == 0; rn.hi++ {
			if int(rn.hi) == i || names[rn.hi].rec() != names[rn.hi-1].rec() {
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
	rs.names = append(rs.names, newNaming(token, off, rec))
}
