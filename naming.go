package robots

// Namings: the product tokens of the user-agent lines, with their records,
// sorted by token (case ignored) so that resolve makes one group for each
// token.

import (
	"cmp"
	"math"
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

// compareSamePrefix compares the tokens of two namings of the same prefix,
// ignoring ASCII case: by their lengths if either is 8 bytes or fewer (the
// other then starts with it), else by compareLower after their first 8
// bytes.
func compareSamePrefix(text string, a, b *naming) int {
	an, bn := a.size(), b.size()
	if an <= 8 || bn <= 8 {
		return cmp.Compare(an, bn)
	}
	return compareLower(text[a.off()+8:a.off()+an], text[b.off()+8:b.off()+bn])
}

// sameToken reports whether two namings have the same token, ignoring
// ASCII case: tokens of different lengths differ, which most often tells.
// It is inlined, as is lessNaming.
func sameToken(text string, a, b *naming) bool {
	const sizeBits = (1<<namingLenBits - 1) << srcOffBits
	if a.prefix != b.prefix || (a.at^b.at)&sizeBits != 0 {
		return false
	}
	return sameLongToken(text, a, b)
}

// sameLongToken is sameToken for namings of the same prefix and length.
func sameLongToken(text string, a, b *naming) bool {
	return a.size() <= 8 || compareSamePrefix(text, a, b) == 0
}

// lessNaming reports whether compareNamings(text, a, b) < 0 (the order
// naming_test.go writes plainly): by prefix,
// which tells most apart, else by lessSamePrefix.
func lessNaming(text string, a, b *naming) bool {
	if a.prefix != b.prefix {
		return a.prefix < b.prefix
	}
	return lessSamePrefix(text, a, b)
}

// lessSamePrefix is lessNaming for namings of the same prefix.
func lessSamePrefix(text string, a, b *naming) bool {
	if c := compareSamePrefix(text, a, b); c != 0 {
		return c < 0
	}
	return a.rec() < b.rec()
}

// A nameRun is the namings of one token, names[lo:hi] once sorted, and
// the number of distinct records among them.
type nameRun struct{ lo, hi, recs int32 }

// sortNames sorts names by token, ignoring ASCII case, then by record, so
// that each token gets its records in file order, and returns the runs of
// each token and the order in which their groups are made: the tokens of
// most records first, since merging saves them the most.
func sortNames(text string, names []naming, rs *resolveScratch) ([]nameRun, []int32) {
	rs.nameBuf = sortNamings(text, names, rs.nameBuf)
	runs := slices.Grow(rs.runs[:0], len(names)) // at most one a name: grown once
	// alike holds until two tokens have different numbers of records.
	alike := true
	for i := 0; i < len(names); {
		rn := nameRun{lo: int32(i)}
		for rn.hi = int32(i); int(rn.hi) < len(names) && names[rn.hi].prefix == names[i].prefix && sameToken(text, &names[rn.hi], &names[i]); rn.hi++ {
			if int(rn.hi) == i || names[rn.hi].rec() != names[rn.hi-1].rec() {
				rn.recs++
			}
		}
		runs = append(runs, rn)
		alike = alike && rn.recs == runs[0].recs
		i = int(rn.hi)
	}
	order := extend(rs.order[:0], len(runs))
	for k := range order {
		order[k] = int32(k)
	}
	// Most files name each token in one record: tokens of as many records
	// each stay in their order, which a stable sort would keep.
	if !alike {
		rs.keys = sortByRecords(order, runs, rs.keys)
	}
	return runs, order
}

// smallSort is the length up to which sortNamings and sortByRecords sort
// by insertion, with the comparison inlined: most files name a few tokens.
// The slices package sorts so too below that length (stably, for
// sortByRecords), so that the order is the same either way.
const smallSort = 12

// sortNamings sorts names by token, ignoring ASCII case, then by record,
// stably (the namings of one token in one record stay in file order): by
// insertion in runs of smallSort, then by merging runs, to and from buf,
// which it returns, grown to the length of names if need be. The
// comparison is inlined, where a sort of the slices package calls it
// through a function value.
func sortNamings(text string, names, buf []naming) []naming {
	n := len(names)
	for lo := 0; lo < n; lo += smallSort {
		insertNamings(text, names[lo:min(lo+smallSort, n)])
	}
	if n <= smallSort {
		return buf
	}
	buf = extend(buf[:0], n)
	src, dst := names, buf
	for w := smallSort; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			mergeNamings(text, dst[lo:hi], src[lo:mid], src[mid:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &names[0] {
		copy(names, src)
	}
	return buf
}

// insertNamings sorts names as sortNamings does, by insertion.
func insertNamings(text string, names []naming) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && lessNaming(text, &names[j], &names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

// mergeNamings merges a and b, sorted as sortNamings sorts, into dst, of
// their summed length: of equal namings, those of a first.
func mergeNamings(text string, dst, a, b []naming) {
	i, j, k := 0, 0, 0
	for ; i < len(a) && j < len(b); k++ {
		if lessNaming(text, &b[j], &a[i]) {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}

// sortByRecords sorts order, indexes into runs, stably by the number of
// records of their runs, most first: by insertion if they are few, else
// as integer keys that hold the number of records, negated, then the
// index, in keys, which it returns.
func sortByRecords(order []int32, runs []nameRun, keys []uint64) []uint64 {
	if len(order) < smallSort {
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && runs[order[j]].recs > runs[order[j-1]].recs; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
		return keys
	}
	keys = extend(keys[:0], len(order))
	for k, i := range order {
		keys[k] = uint64(math.MaxInt32-runs[i].recs)<<32 | uint64(uint32(i))
	}
	slices.Sort(keys)
	for k, key := range keys {
		order[k] = int32(uint32(key))
	}
	return keys
}
