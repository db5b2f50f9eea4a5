package robots

// The scratch space of Parse, lent by a pool from one call to the next: the
// slices a Parse builds and throws away (kept text and line table before
// they are joined, record starts, rule lines, tokens, sort keys, compiled
// rules before their exact copy). It holds integers only, so that a pooled
// scratch keeps no file alive and costs the collector no scanning.
//
// What it buys: Parse + first question over the real-world corpus, 17.75
// ms of CPU a pass with the pool, 23.75 ms (+34%) with a new scratch every
// call (cpu-ns/op of BenchmarkParseCorpus/op=parse+query, paired binaries).

import "sync"

// A parseScratch holds the scratch slices of one Parse: the parser's and
// resolve's.
type parseScratch struct {
	text, lines []byte
	marks       []lineMark
	starts      []uint32
	resolve     resolveScratch
}

// A resolveScratch holds the scratch slices of Robots.resolve.
type resolveScratch struct {
	// rules are the rule lines of the file, in file order, and first the
	// index in rules of the first rule of each record.
	rules []srcLine
	first []int32
	state []recState
	// names are the (token, record) pairs of the user-agent lines but
	// "*", whose records are in global; runs and order are sortNames's.
	names    []naming
	global   []int32
	runs     []nameRun
	order    []int32
	recs     []int32
	compiled []rule // Robots.compiled while the groups are built
	sc       scratch
}

var scratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// maxPooled is the capacity in bytes past which a scratch is not pooled:
// a file of MaxSize need not make every later Parse hold as much. Pooling
// up to a quarter of MaxSize (files of 64-256 KiB are a third of the
// corpus's bytes) cut what Parse allocates over the corpus by a third
// (8.25 to 5.26 MB).
const maxPooled = 256 << 10

// putScratch gives ps back to the pool, unless one of its slices holds
// more than maxPooled bytes. Each user empties a slice ([:0]) before use.
func putScratch(ps *parseScratch) {
	rs := &ps.resolve
	sc := &rs.sc
	if max(cap(ps.text), cap(ps.lines), 12*cap(ps.marks), 4*cap(ps.starts),
		8*cap(rs.rules), 4*cap(rs.first), cap(rs.state), 12*cap(rs.names), 4*cap(rs.global),
		12*cap(rs.runs), 4*cap(rs.order), 4*cap(rs.recs), 8*cap(rs.compiled),
		8*cap(sc.order), 4*cap(sc.offs), 4*cap(sc.lens), cap(sc.esc)) > maxPooled {
		return
	}
	scratchPool.Put(ps)
}
