package semdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gorep/robots"
)

// Witnesses returns the paths derived from the patterns of the files, on
// which Compare asks both files for a verdict, sorted: for every allow and
// disallow pattern, its literal prefix at each "*" (the "*" taken as empty
// and as one byte), the whole pattern with a final "$" resolved (the path
// itself, and the path followed by "/"), each of those extended by one byte
// that no pattern holds, and the directory of an "Allow: .../index.html"
// (which Google allows too); and "/" with its one-byte extension. For
// "/a*b$" they are "/a", "/ax", "/ab", "/axb", "/ab/", "/abx", "/axbx" and
// the like; for "/a$", "/a", "/ax" and "/a/".
//
// Without a "*" inside a pattern, they reach every set of patterns that a
// path can match. Compare adds, when a crawler's rules have a "*" inside,
// the paths that exploring those rules together finds.
//
// The witnesses of a pattern of n "*" hold n prefixes of it: their bytes
// grow as the square of its length (a 20 KB rule of 10,000 wildcards would
// make 400 MB of them). Witnesses stops at maxWitnessBytes of witnesses,
// those of the patterns it has not reached left out.
func Witnesses(files ...*robots.Robots) []string {
	ws, _ := witnesses(maxWitnessBytes, files...)
	return ws
}

// maxWitnessBytes bounds the bytes of the witnesses of Witnesses. A
// variable, for the tests.
var maxWitnessBytes = 16 << 20

// witnesses returns the witnesses of Witnesses of up to maxBytes bytes in
// all, and whether it found them all.
func witnesses(maxBytes int, files ...*robots.Robots) (ws []string, complete bool) {
	var globs []glob
	for _, r := range files {
		for _, rec := range r.Records() {
			for _, rule := range rec.Rules {
				globs = append(globs, globsOf(rule, 0)...)
			}
		}
	}
	fresh := freshByte(files...)
	set := map[string]bool{}
	left := maxBytes
	// fits reports whether the witnesses of a path of n bytes fit in what
	// is left, and takes their bytes from it.
	fits := func(n int) bool {
		if left -= 2*n + 3; left < 0 {
			return false
		}
		return true
	}
	add := func(w string) {
		if !strings.HasPrefix(w, "/") {
			w = "/" + w // after a leading "*", which matches the "/"
		}
		set[w] = true
		set[w+fresh] = true
	}
	add("/")
	complete = true
globs:
	for _, g := range globs {
		pieces := strings.Split(g.text, "*")
		n := 0 // the length of the pieces up to j, joined without a byte
		for j, p := range pieces {
			if n += len(p); !fits(n) || !fits(n+j) {
				complete = false
				break globs
			}
			add(strings.Join(pieces[:j+1], ""))
			add(strings.Join(pieces[:j+1], fresh))
		}
		if g.anchored {
			if !fits(n + 1) {
				complete = false
				break
			}
			add(strings.Join(pieces, "") + "/")
		}
	}
	witnesses := make([]string, 0, len(set))
	for w := range set {
		witnesses = append(witnesses, w)
	}
	slices.Sort(witnesses)
	return witnesses, complete
}

// globsOf returns the globs that the rule matches with: its pattern, and
// the directory of an "Allow: .../index.html"; none for a pattern that
// never matches or never decides. side goes into the globs.
func globsOf(rule robots.Rule, side int) []glob {
	p := escapePattern(rule.Pattern)
	if p == "" || p[0] != '/' && p[0] != '*' {
		return nil
	}
	text, anchored := trimPattern(p)
	globs := []glob{{text: text, anchored: anchored, side: side, prio: len(p), allow: rule.Allow, line: rule.Line}}
	if dir, ok := indexDir(p, rule.Allow); ok {
		// Google's reference: as if "Allow: /d/$" stood on the same line.
		globs = append(globs, glob{text: dir, anchored: true, side: side, prio: len(dir) + 1, allow: true, line: rule.Line})
	}
	return globs
}

// trimPattern returns the escaped pattern p without a final "$" and without
// trailing "*", and whether it is anchored at the end of the path: "/a$"
// gives "/a", true; "/a*" and "/a*$" both give "/a", false, since a trailing
// "*" matches whatever follows.
func trimPattern(p string) (literal string, anchored bool) {
	if strings.HasSuffix(p, "$") {
		p, anchored = p[:len(p)-1], true
	}
	if strings.HasSuffix(p, "*") {
		p, anchored = strings.TrimRight(p, "*"), false
	}
	return p, anchored
}

// indexDir returns the directory that an allow of ".../index.htm..." also
// allows, as Google's reference does: "Allow: /d/index.html" allows "/d/".
func indexDir(p string, allow bool) (string, bool) {
	if !allow {
		return "", false
	}
	if j := strings.LastIndexByte(p, '/'); j >= 0 && strings.HasPrefix(p[j:], "/index.htm") {
		return p[:j+1], true
	}
	return "", false
}

// freshByte returns a printable byte, as a string, that occurs in no
// escaped pattern of the files, preferring ones that read well in a path.
// With every printable byte taken, it returns a byte outside ASCII, which
// escaped patterns never hold.
func freshByte(files ...*robots.Robots) string {
	var used [256]bool
	for _, r := range files {
		for _, rec := range r.Records() {
			for _, rule := range rec.Rules {
				p := escapePattern(rule.Pattern)
				for i := 0; i < len(p); i++ {
					used[p[i]] = true
				}
			}
		}
	}
	for _, c := range []byte("xzq0~_-.") {
		if !used[c] {
			return string(c)
		}
	}
	for c := byte('!'); c <= '~'; c++ {
		if !used[c] && c != '#' && c != '%' {
			return string(c)
		}
	}
	return "\xff"
}

// escapePattern normalises a pattern as Google's reference does before
// matching (and as package robots does): a "%" and two hex digits get the
// digits upper-cased, and every byte outside ASCII becomes a %XX triplet.
func escapePattern(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isHex reports whether c is an ASCII hex digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// upper returns the ASCII upper case of c.
func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// A witnessSet gives the witnesses of each crawler: those of Witnesses,
// and when the crawler's rules have a "*" inside, those that explore finds
// for them, computed once for each pair of groups.
type witnessSet struct {
	old, new *robots.Robots
	// common are the witnesses of Witnesses; fresh is a byte no pattern
	// holds.
	common []string
	fresh  string
	// explored holds the witnesses of each pair of groups explored, by key.
	explored map[string][]string
	// all holds every witness handed out; complete is false once an
	// exploration stopped at maxStates.
	all      map[string]bool
	complete bool
	// budget is the work explore may still do, mem the bytes it may still
	// keep.
	budget, mem int
	// limits says which budgets cut the witnesses (Report.Limits).
	limits []string
}

func newWitnessSet(old, new *robots.Robots) *witnessSet {
	common, complete := witnesses(maxWitnessBytes, old, new)
	w := &witnessSet{old: old, new: new, common: common, fresh: freshByte(old, new),
		explored: map[string][]string{}, all: map[string]bool{}, complete: complete, budget: maxWork, mem: maxExploreBytes}
	if !complete {
		w.limits = append(w.limits, LimitPatterns)
	}
	for _, p := range w.common {
		w.all[p] = true
	}
	return w
}

// of returns the witnesses for the crawler agent, sorted.
func (w *witnessSet) of(agent string) []string {
	old, new := groupRules(w.old, agent), groupRules(w.new, agent)
	if !hasInnerStar(old) && !hasInnerStar(new) {
		return w.common
	}
	key := fmt.Sprint(old, new)
	more, ok := w.explored[key]
	if !ok {
		var complete bool
		more, complete = explore(old, new, w.fresh, &w.budget, &w.mem)
		if !complete && !slices.Contains(w.limits, LimitWildcards) {
			w.limits = append(w.limits, LimitWildcards)
		}
		w.complete = w.complete && complete
		w.explored[key] = more
		for _, p := range more {
			w.all[p] = true
		}
	}
	out := slices.Concat(w.common, more)
	slices.Sort(out)
	return slices.Compact(out)
}

// hasInnerStar reports whether a rule's pattern has a "*" that is not at
// its end.
func hasInnerStar(rules []robots.Rule) bool {
	for _, r := range rules {
		if text, _ := trimPattern(escapePattern(r.Pattern)); strings.Contains(text, "*") {
			return true
		}
	}
	return false
}
