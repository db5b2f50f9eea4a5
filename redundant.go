package robots

// The redundant rules Check reports: another rule of their group matches
// whenever they do and wins (a greater key), over the compiled rules.

import (
	"slices"
	"strconv"
)

// A matchClass is a class of rules that match the same paths.
type matchClass struct {
	pattern  string
	anchored bool
}

// anchored reports whether r matches only paths that end with its pattern.
func (r rule) anchored() bool { return r.shape() == shapeExact || r.shape() == shapeAnchored }

// ruleIndex finds, for a compiled rule, another rule of its set that matches
// whenever it does and outranks it. As the rules are sorted by key, the
// first of a class is its best: the only one that can outrank the others.
type ruleIndex struct {
	s     *ruleSet
	rules []rule   // by key, greatest first
	keys  []uint64 // of rules
	same  map[matchClass]int
	// prefixes holds the first prefix rule of each head, and lengths the
	// lengths of those heads, increasing.
	prefixes map[string]int
	lengths  []int
	// maxExtra is the most by which the priority of a prefix rule exceeds
	// the length of its head (its trailing "*"s).
	maxExtra int
}

// newRuleIndex indexes the rules of s that can decide, apart from the
// rules implied by index.htm rules, which Check does not count as
// dominating others.
func newRuleIndex(s *ruleSet, decides func(rule) bool) *ruleIndex {
	rules := s.sorted()
	x := &ruleIndex{s: s, rules: rules, keys: make([]uint64, len(rules)),
		same: make(map[matchClass]int, len(rules)), prefixes: make(map[string]int, len(rules))}
	for i, r := range rules {
		x.keys[i] = s.key(r)
	}
	for i, r := range rules {
		if s.derived(r) || !decides(r) {
			continue
		}
		if k := (matchClass{s.pattern(r), r.anchored()}); !hasKey(x.same, k) {
			x.same[k] = i
		}
		if r.shape() == shapePrefix {
			h := s.head(r)
			if !hasKey(x.prefixes, h) {
				x.prefixes[h] = i
				x.lengths = append(x.lengths, len(h))
			}
			x.maxExtra = max(x.maxExtra, r.priority()-len(h))
		}
	}
	slices.Sort(x.lengths)
	x.lengths = slices.Compact(x.lengths)
	return x
}

func hasKey[K comparable, V any](m map[K]V, k K) bool { _, ok := m[k]; return ok }

// dominator returns the index of a rule of another line than rule i that
// surely matches every path rule i matches and outranks it, or -1: one that
// matches the same paths, or a prefix rule whose head starts that of i.
func (x *ruleIndex) dominator(i int) int {
	r, keys := x.rules[i], x.keys
	beats := func(j int, ok bool) bool { return ok && keys[j] > keys[i] && keys[j]&maxLine != keys[i]&maxLine }
	if j, ok := x.same[matchClass{x.s.pattern(r), r.anchored()}]; beats(j, ok) {
		return j
	}
	// A prefix rule's priority is at most its head's length plus maxExtra:
	// shorter heads cannot outrank r.
	head := x.s.head(r)
	i0, _ := slices.BinarySearch(x.lengths, r.priority()-x.maxExtra)
	for _, l := range x.lengths[i0:] {
		if l > len(head) {
			break
		}
		if j, ok := x.prefixes[head[:l]]; beats(j, ok) {
			return j
		}
	}
	return -1
}

// checkRules reports the rules of a record, compiled as s, that never
// decide; and, if the record names "*" (global), a rule that disallows
// everything.
func (c *checker) checkRules(s *ruleSet, global bool) {
	// A pattern that starts with neither "/" nor "*" is reported apart.
	decides := func(r rule) bool {
		p := public(s.file, r).Pattern
		return p[0] == '/' || p[0] == '*'
	}
	x := newRuleIndex(s, decides)
	// An allow rule of ".../index.htm" is compiled as two rules of its
	// line: it is redundant only if both are dominated.
	derivedFree := map[int]bool{}
	for i, r := range x.rules {
		if s.derived(r) && decides(r) && x.dominator(i) < 0 {
			derivedFree[s.line(r)] = true
		}
	}
	for i, r := range x.rules {
		if s.derived(r) || !decides(r) {
			continue
		}
		w := public(s.file, r)
		j := x.dominator(i)
		if j < 0 || derivedFree[w.Line] {
			if global && !w.Allow && r.shape() == shapePrefix && r.headLen() <= 1 {
				c.add(w.Line, SeverityWarning, CodeDisallowAll, quoteValue(w.String())+
					" in the group for \"*\" disallows the whole site to every crawler without a group of its own:"+
					" is this a staging file in production?")
			}
			continue
		}
		y, v := x.rules[j], public(s.file, x.rules[j])
		if v.Allow == w.Allow && y.priority() == r.priority() && s.pattern(y) == s.pattern(r) && y.anchored() == r.anchored() {
			c.add(w.Line, SeverityInfo, CodeDuplicateRule, quoteValue(w.String())+" repeats line "+
				strconv.Itoa(v.Line)+": it never decides")
			continue
		}
		sev := SeverityInfo
		if v.Allow != w.Allow {
			sev = SeverityWarning
		}
		c.add(w.Line, sev, CodeShadowedRule, quoteValue(w.String())+" never decides: "+
			quoteValue(v.String())+" (line "+strconv.Itoa(v.Line)+") matches whenever it does and takes precedence")
	}
}
