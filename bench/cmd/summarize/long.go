package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Issue 34's bound on a question for a long path against 1,000 or 10,000
// wildcard rules, warm and first.
const (
	goalLongMicros = 200 // an 8 KB path, µs
	goalDoubling   = 2.2 // the time of a path twice as long, at most this many times
	worstShape     = "generated"
	worstRules     = "10000" // the rule count of README's row
)

// A longRow is one shape and rule count of BenchmarkWorstCase (shape
// "generated") or BenchmarkAdversarialWildcards: the medians by path
// length in KB, warm and first.
type longRow struct {
	Shape, Rules string
	Warm, First  map[int]cell
}

// longRows returns the rows of the long-path tables of r, in benchstat's
// order: BenchmarkWorstCase's, then BenchmarkAdversarialWildcards'.
func longRows(r *results) ([]longRow, error) {
	var rows []longRow
	for _, src := range []struct {
		tables []table
		shape  bool // the row names start with the shape
	}{{r.LongWorst, false}, {r.LongAdversarial, true}} {
		t, _ := unitTable(src.tables, "sec/op")
		for _, tr := range t.Rows {
			shape, rules, kb, err := longKey(tr.Name, src.shape)
			if err != nil {
				return nil, err
			}
			i := slices.IndexFunc(rows, func(l longRow) bool { return l.Shape == shape && l.Rules == rules })
			if i < 0 {
				rows = append(rows, longRow{Shape: shape, Rules: rules, Warm: map[int]cell{}, First: map[int]cell{}})
				i = len(rows) - 1
			}
			if c, ok := tr.Cells["warm"]; ok {
				rows[i].Warm[kb] = c
			}
			if c, ok := tr.Cells["first"]; ok {
				rows[i].First[kb] = c
			}
		}
	}
	return rows, nil
}

// longKey splits a row name of benchstat -row /shape,/rules,/len ("prefix
// 1000 8KB"), or of -row /rules,/len if !withShape (then the shape is
// worstShape).
func longKey(name string, withShape bool) (shape, rules string, kb int, err error) {
	f := strings.Fields(name)
	want := 2
	if withShape {
		want = 3
	}
	if len(f) != want {
		return "", "", 0, fmt.Errorf("long paths: row %q: want %d fields", name, want)
	}
	kb, err = strconv.Atoi(strings.TrimSuffix(f[want-1], "KB"))
	if err != nil || kb <= 0 || !strings.HasSuffix(f[want-1], "KB") {
		return "", "", 0, fmt.Errorf("long paths: row %q: %q is not a length such as 8KB", name, f[want-1])
	}
	shape = worstShape
	if withShape {
		shape = f[0]
	}
	return shape, f[want-2], kb, nil
}

// steepest returns the largest factor of time per doubling of the path
// between consecutive lengths of t: (t(b) ÷ t(a)) to the power 1 ÷
// log2(b ÷ a); ok is false with fewer than two lengths.
func steepest(t map[int]cell) (x float64, ok bool) {
	kbs := make([]int, 0, len(t))
	for kb := range t {
		kbs = append(kbs, kb)
	}
	slices.Sort(kbs)
	for i := 1; i < len(kbs); i++ {
		a, b := t[kbs[i-1]].Value, t[kbs[i]].Value
		if a <= 0 {
			return math.Inf(1), true
		}
		f := math.Pow(b/a, 1/math.Log2(float64(kbs[i])/float64(kbs[i-1])))
		x, ok = max(x, f), true
	}
	return x, ok
}

// longBound returns whether the row meets issue 34's bound, warm and
// first: "yes", "**no**: " and what it misses, or missing if the run lacks
// the 8 KB path or a second length.
func longBound(l longRow) string {
	var misses []string
	for _, q := range []struct {
		name  string
		times map[int]cell
	}{{"warm", l.Warm}, {"first", l.First}} {
		c, ok := q.times[8]
		s, okS := steepest(q.times)
		if !ok || !okS {
			return missing
		}
		if c.Value*1e6 > goalLongMicros {
			misses = append(misses, q.name+" 8 KB")
		}
		if s > goalDoubling {
			misses = append(misses, q.name+" doubling")
		}
	}
	if len(misses) == 0 {
		return "yes"
	}
	return "**no**: " + strings.Join(misses, ", ")
}

// micros formats a benchstat sec/op cell in µs, with its confidence
// interval.
func micros(c cell) string { return threeDigits(c.Value*1e6) + ci(c) }

// writeLong writes the cost of a question for a long path against many
// wildcard rules, beside issue 34's bound.
func writeLong(w io.Writer, r *results) {
	fmt.Fprintf(w, "### Long paths against many wildcard rules\n\n"+
		"µs per question for a path of 1 and 8 KB made of the words the rules use, against 1,000 and 10,000 "+
		"wildcard rules, none of which matches it: shape `%s` is `BenchmarkWorstCase`'s rules "+
		"(`synth_test.go`), of the kind real sites write; the others are `BenchmarkAdversarialWildcards`' shapes, built to defeat the "+
		"matcher (`adversarial_test.go` says how). Warm: the set laid out; first: `Parse` untimed, then the "+
		"file's first question. Issue 34's bound, warm and first: an 8 KB path ≤ %s µs, and doubling the "+
		"path at most ~%s× the time (8 ÷ 1 KB ≤ ~%s×); the steepest doubling is the largest factor per "+
		"doubling between the lengths measured:\n\n",
		worstShape, shortest(goalLongMicros), shortest(goalDoubling), grouped(math.Pow(goalDoubling, 3), 1))
	rows, _ := longRows(r) // readResults checked the rows
	m := newMarkdown("shape", "rules", "1 KB warm µs", "8 KB warm µs", "8 ÷ 1 KB warm",
		"1 KB first µs", "8 KB first µs", "8 ÷ 1 KB first", "steepest doubling: warm / first", "bound met")
	for _, l := range rows {
		w1, okW1 := l.Warm[1]
		w8, okW8 := l.Warm[8]
		f1, okF1 := l.First[1]
		f8, okF8 := l.First[8]
		m.add(l.Shape, rulesText(l.Rules), cellOr(w1, okW1, micros), cellOr(w8, okW8, micros),
			ratio(w8, okW8, w1, okW1), cellOr(f1, okF1, micros), cellOr(f8, okF8, micros),
			ratio(f8, okF8, f1, okF1), steepText(l.Warm)+" / "+steepText(l.First), longBound(l))
	}
	m.write(w)
}

// steepText formats the steepest doubling of t, or missing.
func steepText(t map[int]cell) string {
	s, ok := steepest(t)
	if !ok {
		return missing
	}
	return times(s)
}

// rulesText formats a rule count with its thousands grouped.
func rulesText(s string) string {
	if n, err := strconv.Atoi(s); err == nil {
		return grouped(float64(n), 0)
	}
	return s
}

// slowestLong returns README's cell: an 8 KB path against 10,000 wildcard
// rules, the slowest shape, warm / first, in µs without intervals.
func slowestLong(r *results) string {
	rows, _ := longRows(r) // readResults checked the rows
	slowest := func(q func(longRow) map[int]cell) (float64, string) {
		v, shape := 0.0, ""
		for _, l := range rows {
			if c, ok := q(l)[8]; ok && l.Rules == worstRules && c.Value > v {
				v, shape = c.Value, l.Shape
			}
		}
		return v, shape
	}
	warm, sw := slowest(func(l longRow) map[int]cell { return l.Warm })
	first, sf := slowest(func(l longRow) map[int]cell { return l.First })
	if sw == "" || sf == "" {
		return missing
	}
	us := func(x float64) string { return threeDigits(x * 1e6) }
	if sw == sf {
		return us(warm) + " / " + us(first) + " µs (" + sw + ")"
	}
	return us(warm) + " µs (" + sw + ") / " + us(first) + " µs (" + sf + ")"
}
