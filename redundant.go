package robots

// The redundant-rule analysis of Check: rules that can never decide because
// another rule of their group matches whenever they do and wins.

import (
	"slices"
	"strconv"
	"strings"
)

// A ruleShape is what Check knows of the matches of a rule: enough to prove
// that one rule matches whenever another does.
type ruleShape struct {
	rule Rule
	// prio is the priority of the rule, the length of its escaped pattern.
	prio int
	// norm is the escaped pattern without a trailing "$" or trailing "*"s,
	// which change what it matches only through anchored; rules with the
	// same norm and anchored match the same paths.
	norm     string
	anchored bool
	// head is norm up to its first "*": every path the rule matches starts
	// with it. prefix reports whether the rule matches every such path.
	head   string
	prefix bool
	// For an allow rule of ".../index.htm...", quirk is the shape of the
	// exact directory it also allows, with priority quirkPrio.
	quirk     *ruleShape
	quirkPrio int
}

// shapeOf returns the shape of a rule with escaped pattern ep, read as
// match.go compiles it.
func shapeOf(r Rule, ep string) ruleShape {
	s := ruleShape{rule: r, prio: len(ep), norm: ep}
	if strings.HasSuffix(s.norm, "$") {
		s.norm, s.anchored = s.norm[:len(s.norm)-1], true
	}
	if strings.HasSuffix(s.norm, "*") {
		s.norm, s.anchored = strings.TrimRight(s.norm, "*"), false
	}
	s.head = s.norm
	if i := strings.IndexByte(s.norm, '*'); i >= 0 {
		s.head = s.norm[:i]
	}
	s.prefix = !s.anchored && s.head == s.norm
	return s
}

// outranks reports whether a rule of shape s takes precedence over one of
// priority prio, kind allow and line line, when both match: the greater
// priority wins, then allow, then the earlier line.
func (s *ruleShape) outranks(prio int, allow bool, line int) bool {
	if s.prio != prio {
		return s.prio > prio
	}
	if s.rule.Allow != allow {
		return s.rule.Allow
	}
	return s.rule.Line < line
}

// A best2 holds the indexes of the two rules that take precedence over all
// others in some class, or -1.
type best2 [2]int

// add puts rule i of shapes into b if it is among the two best.
func (b *best2) add(shapes []ruleShape, i int) {
	s := &shapes[i]
	switch {
	case b[0] < 0 || s.outranks(shapes[b[0]].prio, shapes[b[0]].rule.Allow, shapes[b[0]].rule.Line):
		b[0], b[1] = i, b[0]
	case b[1] < 0 || s.outranks(shapes[b[1]].prio, shapes[b[1]].rule.Allow, shapes[b[1]].rule.Line):
		b[1] = i
	}
}

// other returns the best rule of b that is not rule i, or -1.
func (b best2) other(i int) int {
	if b[0] != i {
		return b[0]
	}
	return b[1]
}

// A normKey is a class of rules that match the same paths.
type normKey struct {
	norm     string
	anchored bool
}

// ruleIndex finds, for a rule, another rule of its record that matches
// whenever it does.
type ruleIndex struct {
	shapes []ruleShape
	// same holds the best rules of each class of rules that match the same
	// paths.
	same map[normKey]best2
	// prefixes holds the best prefix rules by head, and lengths the
	// lengths of those heads, increasing.
	prefixes map[string]best2
	lengths  []int
	// maxExtra is the greatest number of bytes by which the priority of a
	// prefix rule exceeds the length of its head (its trailing "*"s).
	maxExtra int
}

// newRuleIndex indexes shapes.
func newRuleIndex(shapes []ruleShape) *ruleIndex {
	x := &ruleIndex{shapes: shapes, same: make(map[normKey]best2, len(shapes)), prefixes: make(map[string]best2, len(shapes))}
	for i := range shapes {
		s := &shapes[i]
		k := normKey{s.norm, s.anchored}
		b, ok := x.same[k]
		if !ok {
			b = best2{-1, -1}
		}
		b.add(shapes, i)
		x.same[k] = b
		if s.prefix {
			b, ok := x.prefixes[s.head]
			if !ok {
				b = best2{-1, -1}
				x.lengths = append(x.lengths, len(s.head))
			}
			b.add(shapes, i)
			x.prefixes[s.head] = b
			x.maxExtra = max(x.maxExtra, s.prio-len(s.head))
		}
	}
	slices.Sort(x.lengths)
	x.lengths = slices.Compact(x.lengths)
	return x
}

// dominator returns the index of a rule other than rule i that matches
// every path s matches and outranks s there (s is rule i, or its
// index.htm quirk), or -1. It finds such a rule only when that is certain:
// one that matches the same paths, or a prefix rule whose head starts the
// head of s.
func (x *ruleIndex) dominator(i int, s *ruleShape, prio int) int {
	r := s.rule
	if b, ok := x.same[normKey{s.norm, s.anchored}]; ok {
		if j := b.other(i); j >= 0 && x.shapes[j].outranks(prio, r.Allow, r.Line) {
			return j
		}
	}
	// A prefix rule outranks s only if its priority, at most its head's
	// length plus maxExtra, reaches that of s: shorter heads need not be
	// looked up.
	i0, _ := slices.BinarySearch(x.lengths, prio-x.maxExtra)
	for _, l := range x.lengths[i0:] {
		if l > len(s.head) {
			break
		}
		if b, ok := x.prefixes[s.head[:l]]; ok {
			if j := b.other(i); j >= 0 && x.shapes[j].outranks(prio, r.Allow, r.Line) {
				return j
			}
		}
	}
	return -1
}

// checkRecord reports the rules of rec that can never decide, because
// another rule of the record matches whenever they do and takes precedence,
// and a "*" group that disallows everything.
func (c *checker) checkRecord(rec *checkRecord) {
	shapes := make([]ruleShape, 0, len(rec.rules))
	for _, r := range rec.rules {
		if r.Pattern == "" || r.Pattern[0] != '/' && r.Pattern[0] != '*' {
			continue // never decides, and reported if it never matches
		}
		ep := escapePattern(r.Pattern)
		s := shapeOf(r, ep)
		// As match.go: "Allow: /d/index.html" also allows exactly "/d/".
		if j := strings.LastIndexByte(ep, '/'); r.Allow && j >= 0 && strings.HasPrefix(ep[j:], "/index.htm") {
			q := shapeOf(r, ep[:j+1]+"$")
			s.quirk, s.quirkPrio = &q, j+2
		}
		shapes = append(shapes, s)
	}
	x := newRuleIndex(shapes)
	for i := range shapes {
		s := &shapes[i]
		j := x.dominator(i, s, s.prio)
		if j < 0 || s.quirk != nil && x.dominator(i, s.quirk, s.quirkPrio) < 0 {
			if rec.global && !s.rule.Allow && s.prefix && (s.norm == "" || s.norm == "/") {
				c.add(s.rule.Line, SeverityWarning, CodeDisallowAll, quote(s.rule.String())+
					" in the group for \"*\" disallows the whole site to every crawler without a group of its own:"+
					" is this a staging file in production?")
			}
			continue
		}
		y := &shapes[j]
		if y.rule.Allow == s.rule.Allow && y.prio == s.prio && y.norm == s.norm && y.anchored == s.anchored {
			c.add(s.rule.Line, SeverityInfo, CodeDuplicateRule, quote(s.rule.String())+" repeats line "+
				strconv.Itoa(y.rule.Line)+": it never decides")
			continue
		}
		sev := SeverityInfo
		if y.rule.Allow != s.rule.Allow {
			sev = SeverityWarning
		}
		c.add(s.rule.Line, sev, CodeShadowedRule, quote(s.rule.String())+" never decides: "+
			quote(y.rule.String())+" (line "+strconv.Itoa(y.rule.Line)+") matches whenever it does and takes precedence")
	}
}
