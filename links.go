package robots

// The up links of a laid-out set (bigSet.up), kept in its rules when they
// can all be.
//
// What it buys, in bytes kept per input byte, warm for Googlebot
// (TestKeptPerByte, TestKeptPerByteSmallFiles): with the links always
// apart, 2 bytes a rule, rules-short keeps 1.61 rather than 1.39 at 4 KiB
// and records-own-and-global 1.60 rather than 1.41, over the bound of 1.5;
// rules-100k 10% more, invalid-utf8 10%, the real-world corpus 1.2%.

// inRun marks, in bigSet.up, a rule that does not end the run of its head.
const inRun = -2

// links are the up links of a laid-out set, one for each rule of its third
// run: a rule index, -1 or inRun. When every rule of the run can keep its
// own, each is kept in its rule, in the byte that a wildcard rule's need
// takes (and which is 0 in any other rule): 0 for -1, linkInRun for
// inRun, or how many rules back the link is, below linkFar; a question
// reads the link of a rule it has just read, and the set keeps no byte
// for its links. Otherwise (a wildcard rule among the run, or a link
// linkFar rules back or more) every link is kept in all, plus 2, in 2
// bytes: a set laid out has fewer than maxLaid rules.
type links struct {
	all []uint16
}

// The bytes of a link kept in a rule (links), beside the distances.
const (
	linkFar   = 254
	linkInRun = 255
)

// makeLinks returns links up of rules, the third run of a layout, which
// it keeps in rules if it can.
func makeLinks(rules []rule, up []int32) links {
	inRules := true
	for i, v := range up {
		if rules[i].shape() >= shapeWildcard || v >= 0 && int32(i)-v >= linkFar {
			inRules = false
			break
		}
	}
	if inRules {
		for i, v := range up {
			var b uint8
			switch {
			case v == inRun:
				b = linkInRun
			case v >= 0:
				b = uint8(int32(i) - v)
			}
			rules[i] = rules[i]&^needBits | rule(b)<<ruleNeedShift
		}
		return links{}
	}
	l := links{all: make([]uint16, len(up))}
	for i, v := range up {
		l.all[i] = uint16(v + 2)
	}
	return l
}

// at returns the link of rule i of rules, the third run of a layout.
func (l *links) at(rules []rule, i int32) int32 {
	if l.all != nil {
		return int32(l.all[i]) - 2
	}
	switch b := rules[i].need(); b {
	case 0:
		return -1
	case linkInRun:
		return inRun
	default:
		return i - int32(b)
	}
}

// size returns the bytes the links take beside the rules.
func (l *links) size() int { return sliceSize[uint16](cap(l.all)) }
