package robots

// The up links of a laid-out set (bigSet.up), most of them kept in its
// rules.

// inRun marks, in bigSet.up, a rule that does not end the run of its head.
const inRun = -2

// links are the up links of a laid-out set, one for each rule of its third
// run: a rule index, -1 or inRun. When the run has fewer than 1<<16-1
// rules (always so, for a run of one file: a rule line takes at least 8
// bytes of MaxSize), the link of a rule that is not a wildcard rule is
// kept in the rule itself, in the byte that a wildcard rule's need takes
// (and which is 0 in any other rule): 0 for -1, linkInRun for inRun, or
// how many rules back the link is, below linkFar; the other links are
// kept in far, by rule. Otherwise (long) far holds every link.
//
// A question reads the link of a rule it has just read; a laid-out set
// keeps no byte a rule for most links, where a slice of them took 2.
type links struct {
	// far holds, sorted, the index of each rule whose link its rule
	// does not keep, shifted left 16, with the link plus 2; or, if long,
	// every link, as an int32.
	far  []uint32
	long bool
}

// The bytes of a link kept in a rule (links), beside the distances.
const (
	linkFar   = 254
	linkInRun = 255
)

// makeLinks returns links up of rules, the third run of a layout,
// keeping those it can in rules.
func makeLinks(rules []rule, up []int32) links {
	if len(rules) >= 1<<16-1 {
		l := links{far: make([]uint32, len(up)), long: true}
		for i, v := range up {
			l.far[i] = uint32(v)
		}
		return l
	}
	// The byte each rule keeps: linkFar for a link kept in far.
	near := make([]uint8, len(rules))
	nFar := 0
	for i, v := range up {
		switch d := int32(i) - v; {
		case rules[i].shape() >= shapeWildcard, v >= 0 && d >= linkFar:
			near[i] = linkFar
			nFar++
		case v == inRun:
			near[i] = linkInRun
		case v >= 0:
			near[i] = uint8(d)
		}
	}
	var l links
	if nFar > 0 {
		l.far = make([]uint32, 0, nFar)
	}
	const needBits = 0xFF << ruleNeedShift
	for i, b := range near {
		if b == linkFar {
			l.far = append(l.far, uint32(i)<<16|uint32(up[i]+2))
		}
		if rules[i].shape() < shapeWildcard {
			rules[i] = rules[i]&^needBits | rule(b)<<ruleNeedShift
		}
	}
	return l
}

// at returns the link of rule i of rules, the third run of a layout.
func (l *links) at(rules []rule, i int32) int32 {
	if l.long {
		return int32(l.far[i])
	}
	if r := rules[i]; r.shape() < shapeWildcard {
		switch b := r.need(); {
		case b == 0:
			return -1
		case b == linkInRun:
			return inRun
		case b < linkFar:
			return i - int32(b)
		}
	}
	return l.farAt(i)
}

// farAt returns the link of rule i, kept in far.
func (l *links) farAt(i int32) int32 {
	lo, hi := 0, len(l.far)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if l.far[mid]>>16 < uint32(i) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int32(l.far[lo]&0xFFFF) - 2
}

// size returns the bytes the links take beside the rules.
func (l *links) size() int { return sliceSize[uint32](cap(l.far)) }
