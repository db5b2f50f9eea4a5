package robots

// Namings: the product tokens of the user-agent lines, with their records,
// sorted by token (case ignored) so that resolve makes one group for each
// token.
//
// Each naming carries the first 8 bytes of its token, lower-cased, as an
// integer, which decides most comparisons of the sort and of the runs.
// What it buys: Parse + first question over the real-world corpus costs
// 18.34 ms of CPU a pass with it, 19.12 ms (+4.3%) comparing tokens with
// compareLower alone (cpu-ns/op of BenchmarkParseCorpus/op=parse+query's
// loop, min of 7 passes, mean of 5 rounds alternating the binaries). Kept,
// though under 5%, while Parse + first question is within a few percent of
// its floor of 10% of a line scan (10.8%).

import (
	"cmp"
	"slices"
)

// A naming is a (token, record) pair of a user-agent line: the token as
// written, n bytes at off in the kept text, and, to sort by, its first 8
// bytes in lower case, big-endian (offsets and integers rather than a
// string, which would cost a write barrier to store and the garbage
// collector a pointer to scan).
type naming struct {
	prefix uint64
	// at holds, from the least significant bit, the offset of the token
	// (srcOffBits), its length (namingLenBits: a token is shorter than a
	// line) and the record.
	at uint64
}

// namingLenBits is the width of the length of a token in a naming.
const namingLenBits = 15

func (n *naming) off() uint32 { return uint32(n.at & (1<<srcOffBits - 1)) }
func (n *naming) size() uint32 {
	return uint32(n.at >> srcOffBits & (1<<namingLenBits - 1))
}
func (n *naming) rec() int32 { return int32(n.at >> (srcOffBits + namingLenBits)) }

// newNaming returns the naming of token, at off in the kept text, in
// record rec.
func newNaming(token string, off uint32, rec int32) naming {
	var prefix uint64
	for i := range 8 {
		prefix <<= 8
		if i < len(token) {
			prefix |= uint64(lower(token[i]))
		}
	}
	return naming{prefix, uint64(off) | uint64(len(token))<<srcOffBits | uint64(rec)<<(srcOffBits+namingLenBits)}
}

// compareNamings compares two namings by token, ignoring ASCII case, then
// by record.
func compareNamings(text string, a, b *naming) int {
	if c := compareNames(text, a, b); c != 0 {
		return c
	}
	return cmp.Compare(a.rec(), b.rec())
}

// compareNames compares the tokens of two namings, ignoring ASCII case:
// by their prefixes, which tell most apart, else by their lengths if
// either is 8 bytes or fewer (the other then starts with it), else by
// compareLower after their first 8 bytes. Tokens hold no NUL, so that a
// shorter token's prefix, padded with zeros, sorts before that of a
// longer one it starts.
func compareNames(text string, a, b *naming) int {
	if c := cmp.Compare(a.prefix, b.prefix); c != 0 {
		return c
	}
	an, bn := a.size(), b.size()
	if an <= 8 || bn <= 8 {
		return cmp.Compare(an, bn)
	}
	return compareLower(text[a.off()+8:a.off()+an], text[b.off()+8:b.off()+bn])
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
