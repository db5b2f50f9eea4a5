package robots

// The up links of a laid-out set (bigSet.up), kept in its rules when they
// can all be. Buys (TestKeptPerByte, TestKeptPerByteSmallFiles): with the
// links always apart, 2 bytes a rule, rules-short keeps 1.61 rather than
// 1.39 at 4 KiB, over the bound of 1.5.

// inRun marks, in bigSet.up, a rule that does not end the run of its head.
const inRun = -2

// links are the up links of the third run of a layout: a rule index, -1
// or inRun for each rule. When every rule of the run can keep its own, it
// is kept in the rule's need byte (0 in a rule that is not a wildcard
// rule): 0 for -1, linkInRun for inRun, or how many rules back the link
// is, below linkFar. Otherwise every link is kept in all, plus 2.
type links struct {
	all []uint16
}

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

func (l *links) size() int { return sliceSize[uint16](cap(l.all)) }
