package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Issue 11's goals, written beside the measures.
const (
	goalKeptCorpus   = 1.0  // bytes kept per input byte, the corpus summed
	goalKeptFile     = 1.5  // bytes kept per input byte, any file of 4 KiB or more
	goalParsePercent = 20   // Parse's throughput, % of a bare line scan's
	goalFirstPercent = 10   // Parse and a first question, % of a bare line scan's
	goalOverFloor    = 2.0  // a question ÷ the least possible work
	goalHostileNanos = 1000 // a question on any hostile file (short path)
	missing          = "–"  // a cell the run does not have
	peerLibsInOrder  = "robots robots-group robots-path floor floor-match temoto temoto-agent grobotstxt"
)

// writeSummary writes the summary of r: the tables of RESULTS.md's
// latest run, then the machine and the commands.
func writeSummary(w io.Writer, r *results) {
	fmt.Fprintf(w, "Measured by `bench/run.sh` in one run at commit %s, %s, on %s (%s cores), %s. "+
		"Medians of %s runs; ± is benchstat's 95 %% confidence interval. "+
		"Load average before and after: %s; %s.\n\n",
		r.metaValue("commit"), r.metaValue("date"), r.metaValue("cpu (go test)"), r.metaValue("cores"),
		strings.TrimPrefix(r.metaValue("go"), "go version "), r.metaValue("count"),
		r.metaValue("load before"), r.metaValue("load after"))
	if peak, cores, ok := r.peakLoad(); ok && peak > cores {
		fmt.Fprintf(w, "**The machine was loaded**: the 1-minute load average reached %s on %s cores during the run, "+
			"so other work shared the cores; the ranges are wide and small differences mean nothing.\n\n",
			shortest(peak), shortest(cores))
	}
	writeKept(w, r)
	writeParse(w, r)
	writeQuestions(w, r)
	writeHostile(w, r)
	writeLong(w, r)
	writeSize(w, r)
	writeMachine(w, r)
}

// writeKept writes the bytes kept per input byte.
func writeKept(w io.Writer, r *results) {
	k := r.Kept
	fmt.Fprintf(w, "### Bytes kept per input byte\n\n"+
		"After `Parse` and questions for Googlebot enough to compile and lay out the sets that answer it (warm), as `Robots.MemSize` counts them "+
		"(`TestKeptPerByte`, exit status %s):\n\n", r.metaValue("TestKeptPerByte exit status"))
	m := newMarkdown("input", "kept ÷ input", "test's bound", "issue 11 goal", "goal met")
	goal := func(ratio, g float64) (string, string) {
		return "≤ " + shortest(g), yesNo(ratio <= g)
	}
	g, met := goal(k.Corpus, goalKeptCorpus)
	m.add(fmt.Sprintf("real-world corpus, summed (%s B)", grouped(float64(k.CorpusBytes), 0)),
		grouped(k.Corpus, 2), bound(k, "realworld"), g, met)
	g, met = goal(k.Largest, goalKeptFile)
	m.add(fmt.Sprintf("largest real file (%s B)", grouped(float64(k.LargestSize), 0)),
		grouped(k.Largest, 2), missing, g, met)
	files := slices.Clone(k.Files)
	slices.SortFunc(files, func(a, b kept) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range files {
		if f.Name == "realworld" {
			continue
		}
		g, met = goal(f.Ratio, goalKeptFile)
		m.add("hostile: "+f.Name, grouped(f.Ratio, 2), shortest(f.Bound), g, met)
	}
	m.write(w)
}

// bound returns the test's bound for name, or missing.
func bound(k keptRatios, name string) string {
	for _, f := range k.Files {
		if f.Name == name {
			return shortest(f.Bound)
		}
	}
	return missing
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// writeParse writes parse throughput: the core over the corpus beside a
// bare line scan, and the peers per file.
func writeParse(w io.Writer, r *results) {
	fmt.Fprintf(w, "### Parsing\n\n"+
		"The real-world corpus (%s B), every file in turn (`BenchmarkParseCorpus`), "+
		"beside a bare scan of the same bytes for line breaks:\n\n", grouped(float64(r.Kept.CorpusBytes), 0))
	m := newMarkdown("", "MB/s", "ms per corpus", "B/op", "allocs/op", "÷ line scan", "issue 11 goal")
	scan, _ := value(r.CoreParse, "B/s", "ParseCorpus", "linescan")
	ops := []struct{ col, label, goal string }{
		{"linescan", "bare line scan", ""},
		{"parse", "`Parse`", "≥ " + shortest(goalParsePercent) + " %"},
		{"parse+query", "`Parse` + first question", "≥ " + shortest(goalFirstPercent) + " %"},
	}
	for _, op := range ops {
		rate, ok := value(r.CoreParse, "B/s", "ParseCorpus", op.col)
		if !ok {
			m.add(op.label, missing)
			continue
		}
		sec, _ := value(r.CoreParse, "sec/op", "ParseCorpus", op.col)
		m.add(op.label, megabytes(rate), threeDigits(sec.Value*1e3),
			plain(r.CoreParse, "B/op", "ParseCorpus", op.col),
			plain(r.CoreParse, "allocs/op", "ParseCorpus", op.col),
			percent(rate.Value/scan.Value), op.goal)
	}
	m.write(w)
	writePeerParse(w, r)
}

// writePeerParse writes parse throughput per file against the peers.
func writePeerParse(w io.Writer, r *results) {
	fmt.Fprint(w, "Per file against the peers (`bench`'s `BenchmarkParse`; robots' is `Parse` and a first "+
		"question, which makes the groups that temoto's parse makes; grobotstxt's is one pass of "+
		"its parser that keeps nothing, the work each of its questions repeats):\n\n")
	m := newMarkdown("file", "robots MB/s", "temoto MB/s", "grobotstxt MB/s", "robots ÷ temoto", "robots allocs/op")
	for _, row := range rowNames(r.PeersParse, "B/s") {
		rob, okR := value(r.PeersParse, "B/s", row, "robots")
		tem, okT := value(r.PeersParse, "B/s", row, "temoto")
		m.add(row, cellOr(rob, okR, megabytes), cellOr(tem, okT, megabytes),
			lookup(r.PeersParse, "B/s", row, "grobotstxt", megabytes),
			ratio(rob, okR, tem, okT), plain(r.PeersParse, "allocs/op", row, "robots"))
	}
	m.write(w)
}

// writeQuestions writes the cost of one question: the core beside its
// floors, then the peers.
func writeQuestions(w io.Writer, r *results) {
	fmt.Fprint(w, "### Questions\n\n"+
		"ns per question, the file parsed beforehand. The core's `BenchmarkAllowed` beside its floors "+
		"(`bench/doc.go` says what each does): `BenchmarkAllowedFloor`, the least work of answering "+
		"`Allowed(agent, url)` from scratch (find Googlebot's heads among the file's tokens; if there are "+
		"any, split the path from the URL and test them in a `strings.HasPrefix` loop), and `BenchmarkAllowedMatchFloor`, the "+
		"`HasPrefix` loop alone, on paths split and heads found beforehand. Both scan every rule, "+
		"so on large files the core's index beats them:\n\n")
	m := newMarkdown("file (testdata/realworld)", "`Allowed` ns", "floor ns", "match-only floor ns",
		"`Allowed` ÷ floor", "issue 11 goal", "`Allowed` ÷ match-only floor", "allocs/op")
	for _, row := range rowNames(r.CoreAllowed, "sec/op") {
		a, okA := value(r.CoreAllowed, "sec/op", row, "Allowed")
		f, okF := value(r.CoreAllowed, "sec/op", row, "AllowedFloor")
		mf, okM := value(r.CoreAllowed, "sec/op", row, "AllowedMatchFloor")
		m.add(row, cellOr(a, okA, nanos), cellOr(f, okF, nanos), cellOr(mf, okM, nanos),
			ratio(a, okA, f, okF), "≤ "+shortest(goalOverFloor)+"×", ratio(a, okA, mf, okM),
			plain(r.CoreAllowed, "allocs/op", row, "Allowed"))
	}
	m.write(w)
	writePeerQuestions(w, r)
}

// writePeerQuestions writes the cost of one question against the floors
// and the peers.
func writePeerQuestions(w io.Writer, r *results) {
	fmt.Fprint(w, "Against the floors and the peers on other files (`bench`'s `BenchmarkAllowed`: 20 questions "+
		"per file, asked in turn; what each call is, is in `bench/doc.go`; the floors there are the same, "+
		"over the rules of the records that name the question's agent: \"floor\" answers from the URL and "+
		"the agent, \"match-only floor\" from the path and the heads found beforehand):\n\n")
	m := newMarkdown("file (bench/testdata)", "robots `Allowed(agent, url)`", "robots `Group.Allowed(url)`",
		"robots `Group.Allowed(path)`", "floor", "match-only floor", "temoto `Group.Test(path)`",
		"temoto `TestAgent`", "grobotstxt per question")
	for _, row := range rowNames(r.PeersAllowed, "sec/op") {
		cells := []string{row}
		for _, lib := range strings.Fields(peerLibsInOrder) {
			cells = append(cells, lookup(r.PeersAllowed, "sec/op", row, lib, nanos))
		}
		m.add(cells...)
	}
	m.write(w)

	fmt.Fprint(w, "The same run as ratios of medians (issue 11's goal: robots ÷ floor ≤ "+
		shortest(goalOverFloor)+"×):\n\n")
	m = newMarkdown("file (bench/testdata)", "robots ÷ floor", "robots ÷ match-only floor",
		"robots path ÷ match-only floor", "temoto ÷ robots", "temoto ÷ robots path", "grobotstxt ÷ robots",
		"robots allocs/op")
	for _, row := range rowNames(r.PeersAllowed, "sec/op") {
		rob, okR := value(r.PeersAllowed, "sec/op", row, "robots")
		path, okP := value(r.PeersAllowed, "sec/op", row, "robots-path")
		floor, okF := value(r.PeersAllowed, "sec/op", row, "floor")
		match, okM := value(r.PeersAllowed, "sec/op", row, "floor-match")
		tem, okT := value(r.PeersAllowed, "sec/op", row, "temoto")
		grob, okG := value(r.PeersAllowed, "sec/op", row, "grobotstxt")
		m.add(row, ratio(rob, okR, floor, okF), ratio(rob, okR, match, okM), ratio(path, okP, match, okM),
			ratio(tem, okT, rob, okR), ratio(tem, okT, path, okP), ratio(grob, okG, rob, okR),
			plain(r.PeersAllowed, "allocs/op", row, "robots"))
	}
	m.write(w)
}

// writeHostile writes the cost of a question on the hostile files.
func writeHostile(w io.Writer, r *results) {
	fmt.Fprint(w, "ns per question on the hostile files of 500 KiB (`BenchmarkHostile`), on a short path "+
		"and on a path of 1,000 `a`s; issue 11's goal is 1 µs per question whatever the file's groups "+
		"(short path):\n\n")
	t, _ := unitTable(r.CoreHostile, "sec/op")
	cols := slices.Clone(t.Cols)
	slices.SortStableFunc(cols, func(a, b string) int { return pathOrder(a) - pathOrder(b) })
	head := []string{"hostile file"}
	for _, c := range cols {
		head = append(head, c+" ns")
	}
	head = append(head, "goal met (short path)")
	m := newMarkdown(head...)
	rows := rowNames(r.CoreHostile, "sec/op")
	slices.Sort(rows)
	for _, row := range rows {
		cells := []string{row}
		for _, c := range cols {
			cells = append(cells, lookup(r.CoreHostile, "sec/op", row, c, nanos))
		}
		met := missing
		if short, ok := value(r.CoreHostile, "sec/op", row, "short"); ok {
			met = yesNo(short.Value*1e9 <= goalHostileNanos)
		}
		m.add(append(cells, met)...)
	}
	m.write(w)
}

// pathOrder orders the paths of BenchmarkHostile by length, the short
// path first; a path it does not know comes last.
func pathOrder(path string) int {
	i := slices.Index([]string{"short", "a-1k", "ab-10k", "a-100k", "b-100k"}, path)
	if i < 0 {
		return 100
	}
	return i
}

// writeSize writes the memory a parsed file holds, against the peer.
func writeSize(w io.Writer, r *results) {
	fmt.Fprint(w, "### Memory against the peer\n\n"+
		"Live heap of one parsed value (robots: warm, after 32 questions), over many copies, "+
		"÷ the file's bytes (`bench`'s `BenchmarkSize`):\n\n")
	m := newMarkdown("file (bench/testdata)", "robots kept ÷ input", "robots kept B", "temoto kept ÷ input", "temoto kept B")
	for _, row := range rowNames(r.PeersSize, "x-input") {
		m.add(row,
			lookup(r.PeersSize, "x-input", row, "robots", func(c cell) string { return times(c.Value) }),
			plain(r.PeersSize, "retained-B", row, "robots"),
			lookup(r.PeersSize, "x-input", row, "temoto", func(c cell) string { return times(c.Value) }),
			plain(r.PeersSize, "retained-B", row, "temoto"))
	}
	m.write(w)
}

// writeMachine writes the machine, the load and the commands of the run.
func writeMachine(w io.Writer, r *results) {
	fmt.Fprint(w, "### How this was measured\n\n")
	m := newMarkdown("", "")
	m.right[1] = false
	for _, l := range r.Meta {
		m.add(l.Key, l.Value)
	}
	m.write(w)
	fmt.Fprintf(w, "```\n%s```\n", r.Commands)
}
