package lint

// The rules of a set that never decide, for Check: each rule that another
// of another line matches whenever it does and outranks, read through the
// engine's view of a compiled rule (ruleset: Set.Sorted, Derived, Pattern,
// Head; Rule.Prefix, Anchored, Priority).

import (
	"slices"

	"github.com/gorep/robots/internal/ruleset"
)

// A redundancy is what redundant finds of a rule that can decide.
type redundancy struct {
	// Off is the offset of the rule's pattern, which names its line
	// (lines.Table.RuleAt).
	Off uint32
	// Dominated reports that the rule of another line at offset By
	// matches whenever this one does and takes precedence, so this one
	// never decides; Repeat, that it is the same rule.
	Dominated, Repeat bool
	By                uint32
	// All reports that the rule matches every path (a prefix rule of a
	// head of at most one byte: "/", "*").
	All bool
}

// redundant returns what it finds of each rule of s, compiled with
// ruleset.KeepAll from text, that can decide (its pattern starts with "/" or "*"), by key,
// greatest first; the rules index.htm rules imply are not counted as
// dominating others, and an index.htm rule is dominated only if its
// directory's rule is too.
func redundant(s *ruleset.Set, text string) []redundancy {
	decides := func(r ruleset.Rule) bool { return ruleset.MayDecide(text[r.Off()]) }
	x := newRuleIndex(s, s.Sorted(), decides)
	// An allow rule of ".../index.htm" is compiled as two rules of its
	// line: it is redundant only if both are dominated.
	derivedFree := map[uint32]bool{} // by offset: one a line
	for i, r := range x.rules {
		if s.Derived(r) && decides(r) && x.dominator(i) < 0 {
			derivedFree[r.Off()] = true
		}
	}
	var out []redundancy
	for i, r := range x.rules {
		if s.Derived(r) || !decides(r) {
			continue
		}
		d := redundancy{Off: r.Off(), All: r.Prefix() && len(s.Head(r)) <= 1}
		if j := x.dominator(i); j >= 0 && !derivedFree[r.Off()] {
			y := x.rules[j]
			d.Dominated, d.By = true, y.Off()
			d.Repeat = y.Allow() == r.Allow() && y.Priority() == r.Priority() && s.Pattern(y) == s.Pattern(r) &&
				y.Anchored() == r.Anchored()
		}
		out = append(out, d)
	}
	return out
}

// A matchClass is a class of rules that match the same paths.
type matchClass struct {
	pattern  string
	anchored bool
}

// ruleIndex finds, for a compiled rule, another rule of its set that matches
// whenever it does and outranks it. As the rules are sorted by key, the
// first of a class is its best: the only one that can outrank the others.
type ruleIndex struct {
	s     *ruleset.Set
	rules []ruleset.Rule // by key, greatest first: rule j outranks rule i if j < i
	same  map[matchClass]int
	// prefixes holds the first prefix rule of each head, and lengths the
	// lengths of those heads, increasing.
	prefixes map[string]int
	lengths  []int
	// maxExtra is the most by which the priority of a prefix rule exceeds
	// the length of its head (its trailing "*"s).
	maxExtra int
}

// newRuleIndex indexes rules, those of s sorted, that can decide, apart from the
// rules implied by index.htm rules, which Check does not count as
// dominating others.
func newRuleIndex(s *ruleset.Set, rules []ruleset.Rule, decides func(ruleset.Rule) bool) *ruleIndex {
	x := &ruleIndex{s: s, rules: rules, same: make(map[matchClass]int, len(rules)),
		prefixes: make(map[string]int, len(rules))}
	for i := len(rules) - 1; i >= 0; i-- { // backwards: the first of a class stays
		r := rules[i]
		if s.Derived(r) || !decides(r) {
			continue
		}
		x.same[matchClass{s.Pattern(r), r.Anchored()}] = i
		if r.Prefix() {
			h := s.Head(r)
			x.prefixes[h] = i
			x.lengths = append(x.lengths, len(h))
			x.maxExtra = max(x.maxExtra, r.Priority()-len(h))
		}
	}
	slices.Sort(x.lengths)
	x.lengths = slices.Compact(x.lengths)
	return x
}

// dominator returns the index of a rule of another line than rule i that
// surely matches every path rule i matches and outranks it, or -1: one that
// matches the same paths, or a prefix rule whose head starts that of i.
func (x *ruleIndex) dominator(i int) int {
	r := x.rules[i]
	beats := func(j int, ok bool) bool { return ok && j < i && x.rules[j].Off() != r.Off() }
	if j, ok := x.same[matchClass{x.s.Pattern(r), r.Anchored()}]; beats(j, ok) {
		return j
	}
	// Heads shorter than r's priority less maxExtra cannot outrank r.
	head := x.s.Head(r)
	i0, _ := slices.BinarySearch(x.lengths, r.Priority()-x.maxExtra)
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
