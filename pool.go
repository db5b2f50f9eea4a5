package robots

import "sync"

// The scratch space of Parse, kept from one call to the next.
//
// Parse builds a file in slices it throws away once the result is made: the
// kept text and line table before they are joined, the starts of records,
// the rule lines and record bounds resolve reads back from the line table,
// the product tokens it sorts, the sort keys of the rules compile sorts,
// and the compiled rules before they are copied to a slice of their exact
// size. Made anew on every call, they were most of Parse's allocations (and
// their growth most of its copying); a pool lends the same ones to call
// after call, so that a crawler parsing file after file allocates little
// more than what it keeps.
//
// What it buys: Parse + first question over the real-world corpus costs
// 17.75 ms of CPU a pass with the pool, 23.75 ms (+34%) with a new scratch
// every call (cpu-ns/op of BenchmarkParseCorpus/op=parse+query's loop:
// the CPU time of the process a pass, min of 7 passes, mean of 4 rounds
// alternating the two test binaries; issue 23).
//
// Nothing in the scratch refers to a parsed file: it holds integers only,
// so that a pooled scratch keeps no file alive, and costs the garbage
// collector no scanning nor write barriers.

// A parseScratch holds the scratch slices of one Parse.
type parseScratch struct {
	// text, lines, marks and starts are those of the parser; resolve is
	// that of resolve.
	text, lines []byte
	marks       []lineMark
	starts      []uint32
	resolve     resolveScratch
}

// A resolveScratch holds the scratch slices of Robots.resolve.
type resolveScratch struct {
	// rules are the rule lines of the file, in file order, and first the
	// index in rules of the first rule of each record; state is that of
	// the groupBuilder.
	rules []srcLine
	first []int32
	state []recState
	// names are the (token, record) pairs of the user-agent lines, but
	// those that name "*", whose records are global; runs are the runs of
	// one token among names and order the order in which their groups are
	// made.
	names  []naming
	global []int32
	runs   []nameRun
	order  []int32
	recs   []int32
	// compiled holds Robots.compiled while the groups are built.
	compiled []rule
	sc       scratch
}

// scratchPool holds *parseScratch values.
var scratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// maxPooled is the capacity, in bytes, beyond which a slice of scratch
// is not pooled: a file of MaxSize bytes, which a crawler seldom sees,
// need not make every later Parse hold that much. Files of 64 KiB to 256
// KiB are a third of the bytes of the real-world corpus (17 of its 1,694
// files): pooling their scratch too (at most a quarter of MaxSize a
// slice, and only until two collections pass it by) cut the bytes Parse
// allocates over the corpus by a third (8.25 to 5.26 MB).
const maxPooled = 256 << 10

// putScratch gives ps back to the pool, unless one of its slices holds
// more than maxPooled bytes. Each user empties a slice ([:0]) before use.
func putScratch(ps *parseScratch) {
	rs := &ps.resolve
	sc := &rs.sc
	if max(cap(ps.text), cap(ps.lines), 12*cap(ps.marks), 4*cap(ps.starts),
		8*cap(rs.rules), 4*cap(rs.first), cap(rs.state), 12*cap(rs.names), 4*cap(rs.global),
		12*cap(rs.runs), 4*cap(rs.order), 4*cap(rs.recs), 8*cap(rs.compiled), 8*cap(sc.order), 4*cap(sc.offs), 4*cap(sc.lens), cap(sc.esc)) > maxPooled {
		return
	}
	scratchPool.Put(ps)
}
