package ruleset

import "github.com/gorep/robots/internal/heapsize"

// What the model's white-box tests (package robots) read of a set built by
// Parse, and what a layout costs: no question calls these.

// LayoutQuestions is the weight of the scans after which a lazy set is
// laid out (lazy.go).
const LayoutQuestions = layoutQuestions

// MinFloating is the number of wildcard rules of a large set from which
// a layout files them by anchor.
const MinFloating = minFloating

// MaxLaid bounds the rules of a set laid out (index.go).
const MaxLaid = maxLaid

// MaxText bounds the kept text: a rule's offset fits below its raw bit.
const MaxText = 1 << ruleRawBit

// A State is what a set has built.
type State struct {
	Lazy bool // a set of rule lines, compiled once asked enough (LazySet)
	Laid bool // laid out: its questions are warm
	// Rules are the laid-out rules, in the layout's own slice.
	Rules []Rule
	// Live is the number of rules that repeat none before them; Float,
	// of the wildcard rules filed by anchor, Marked of those that are
	// single in their bucket; Dirs, the directories of index.htm rules
	// filed apart.
	Live, Float, Marked, Dirs int
	Folded                    bool // directory rules folded into their index.htm rules
	ShortAnchor               bool // some rules are filed by an anchor of 1 or 2 bytes
	// Size is the bytes the layout keeps, its rules included.
	Size int
}

// Inspect returns what s has built.
func (s *ruleSet) Inspect() State {
	var st State
	if s.big == nil {
		return st
	}
	st.Lazy, st.Folded = s.big.lazy(), s.big.folded()
	b := s.big.Load()
	if b == nil {
		return st
	}
	st.Laid, st.Rules, st.Live, st.Float, st.Dirs = true, b.rules, int(b.nLive), int(b.nFloat), b.dirs.len()
	for _, r := range b.rules[:b.nFloat] {
		if _, _, single := unmark(r); single {
			st.Marked++
		}
	}
	if f := b.float; f != nil {
		st.ShortAnchor = f.heads[0] != (byteMap{}) || f.heads[1] != (byteMap{})
	}
	st.Size = b.memSize() + heapsize.Slice[rule](cap(b.rules))
	return st
}

// Rules returns the compiled rules of s, which is not lazy.
func (s *ruleSet) Rules() []Rule { return s.rules() }

// Raw reports whether r is kept as written, escaped as it is matched.
func (r rule) Raw() bool { return r&ruleRaw != 0 }

// LayOut lays s out, a set of more than SmallSet rules or rule lines, as
// enough questions would.
func (s *ruleSet) LayOut() { s.layOut() }

// CompileAside returns the rules of s compiled in a slice of their own,
// as a question that lays s out does.
func (s *ruleSet) CompileAside() []Rule { return s.compileAside() }

// Relayout lays rules out as a question that lost the race to publish
// does: the published layout must not change.
func (s *ruleSet) Relayout(rules []Rule) { s.newLayout(rules) }
