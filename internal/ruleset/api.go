// Package ruleset is the engine: it compiles the rules of a group and
// answers which of them decides a path, as Google's matcher does (the
// package doc of package robots, "Matching"). Package robots, the model,
// holds a file's Source and its sets; this package reads the text and the
// line table of a Source (package lines), never the model.
//
// The door is this file: Compile and LazySet make a Set (NewSet rebuilds
// one from its Parts), Set.Match finds the deciding Rule of a path into a
// Match, and a Source says what its questions laid out (LazySize); beside
// it, what lint's Check reads of a set's rules to find those that never
// decide (Set.Sorted, Derived, Pattern, Head; Rule.Prefix, Anchored,
// Priority), and inspect.go what the model's tests
// read of a set. Everything else is unexported.
package ruleset

import "github.com/gorep/robots/internal/lines"

type (
	// A Set is the compiled rules of one or more records (ruleSet).
	Set = ruleSet
	// A Rule is a compiled allow or disallow rule (rule); the zero Rule is
	// none.
	Rule = rule
	// A Match is the best rule found so far for a path (match).
	Match = match
	// A Scratch holds what Compile reuses from one set to the next.
	Scratch = scratch
	// A Lazy is the layout of a set of more than SmallSet rules, made as
	// it is asked (lazyLayout).
	Lazy = lazyLayout
)

// SmallSet is the number of rules up to which a set is searched linearly
// and compiled at once.
const SmallSet = smallSet

// Compile compiles rules, whose values are in the text of src, into s,
// appending them to the compiled rules of src.
func Compile(s *Set, src *Source, rules []lines.Line, sc *Scratch) { compile(s, src, rules, sc) }

// LazySet returns a set of the n (> SmallSet) rule lines of the records of
// src that srcLo and srcN name (record srcLo alone if srcN is 0, else
// (*recs)[srcLo:srcLo+srcN], the model's record lists, which it may append
// to and replace but not change), compiled once asked enough.
func LazySet(src *Source, n int, recs *[]int32, srcLo, srcN int32) Set {
	return lazySet(src, n, recs, srcLo, srcN)
}

// NewSet returns the set of the n rules from lo of the compiled rules of
// src, laid out as big (of more than SmallSet rules, else nil); or, if lo
// is ^rec, the n rule lines of record rec read from the line table at
// each question.
func NewSet(src *Source, lo, n int32, big *Lazy) Set {
	return ruleSet{src: src, lo: lo, n: n, big: big}
}

// Parts returns what NewSet made s of.
func (s *ruleSet) Parts() (lo, n int32, big *Lazy) { return s.lo, s.n, s.big }

// Empty reports whether s has no rule.
func (s *ruleSet) Empty() bool { return s.n == 0 }

// Match updates m with the best rule of s that matches path, if it beats
// the one m holds.
func (s *ruleSet) Match(path string, m *Match) { s.match(path, m) }

// NewMatch returns an empty Match; with quote, of rules of equal rank the
// earliest line wins (for Decide, which quotes it), not the first found.
func NewMatch(quote bool) Match { return match{quote: quote} }

// Best returns the best rule m has found, or the zero Rule.
func (m *match) Best() Rule { return m.rule }

// Allow reports whether r is an allow rule.
func (r rule) Allow() bool { return r.allow() }

// Off returns the offset of the pattern of r in the kept text: its line's
// value (lines.Table.RuleAt).
func (r rule) Off() uint32 { return r.off() }

// KeepAll returns a Scratch with which Compile keeps every rule with a
// pattern, those that can never decide too, in a set sorted by key, for
// Check.
func KeepAll() Scratch { return scratch{all: true} }

// MayDecide reports whether a rule whose pattern starts with c may match a
// path.
func MayDecide(c byte) bool { return mayDecide(c) }

// EscapeChanges reports whether escaping changes pattern p: a raw rule.
func EscapeChanges(p string) bool { return escapeChanges(p) }

// Sorted returns a copy of the rules of s sorted by key, greatest first:
// of a large set, compiled anew, whatever its state.
func (s *ruleSet) Sorted() []Rule { return s.sorted() }

// Derived reports whether r is the rule an index.htm allow rule implies.
func (s *ruleSet) Derived(r Rule) bool { return s.derived(r) }

// Pattern returns the part of the escaped pattern of r, a rule of s, that
// is matched: without a trailing "$" or "*"s.
func (s *ruleSet) Pattern(r Rule) string { return s.pattern(r) }

// Head returns the literal head of the escaped pattern of r, a rule of s.
func (s *ruleSet) Head(r Rule) string { return s.head(r) }

// Prefix reports whether r matches every path that starts with its head.
func (r rule) Prefix() bool { return r.shape() == shapePrefix }

// Anchored reports whether r matches only paths that end with its pattern.
func (r rule) Anchored() bool { return r.shape() == shapeExact || r.shape() == shapeAnchored }

// Priority returns the priority of r: the length of its escaped pattern.
func (r rule) Priority() int { return r.priority() }
