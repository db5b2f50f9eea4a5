package robots

// The data layout of a compiled rule set (DESIGN.md, "Data layout"): its
// types, the accessors of their bits, and bytes as the Go heap counts
// them, each allocation rounded up to its size class (TestMemSize).

import (
	"sync/atomic"
	"unsafe"

	"github.com/gorep/robots/internal/lines"
)

// A dirList holds the directories of a laid-out set (bigSet.dirs),
// sorted, 3 bytes each: the index of its index.htm rule (below maxLaid),
// low byte first, then the rule's priority less the length of the
// directory, escaped (below 256: htmDir).
type dirList struct {
	b []byte
}

// The fields of a rule that the marks of a table reuse.
const (
	needBits  = 0xFF << ruleNeedShift
	shapeBits = 3 << ruleShapeShift
)

// A floatTable finds the wildcard rules of a large set. Each rule is filed
// under an anchor, the cheapest run of 1-3 literal bytes after its head; a
// question looks up the bucket of each gram at each position of its path
// (floatQuery.try), so the cost grows with the path, not the number of
// rules. Bucket b holds the rules start[b] to start[b+1] of the run: the
// single ones (unmark), then the others, each by key, greatest first.
type floatTable struct {
	// bits is log2 of the number of buckets.
	bits uint8
	// heads[n-1] holds the first bytes of the anchors of n bytes: only
	// grams that start with one are looked up.
	heads [3]byteMap
	// start are the bucket starts and the end of the last (< maxLaid).
	start []uint16
}

// A byteMap is a set of bytes.
type byteMap [4]uint64

// A bigSet is the layout of a set of more than smallSet rules: its rules
// in two runs, the wildcard rules filed by anchor in the buckets of a
// floatTable (when there are many), and all others sorted by head, and by
// key, greatest last, within a head (linkHeads).
type bigSet struct {
	// nFloat is the length of the first run, and float its buckets (nil
	// if it is empty).
	nFloat int32
	float  *floatTable
	// up links the last rule of each head of the second run to the last
	// rule of the longest other head that is a prefix of it, or -1; the
	// others are inRun (index.go, makeLinks).
	up links
	// extra is the greatest excess of the priority of a rule of the third
	// run over the length of its head.
	extra int32
	// nLive is the number of rules that repeat none before them
	// (splitRepeats): the runs above; the repeats follow, never asked.
	nLive int32
	rules []rule
	// dirs are the directories of the index.htm allow rules, when compile
	// left their rules out (leaveOut).
	dirs dirList
	// raw reports whether the set has raw rules, whose heads and
	// directories are compared escaped as they go.
	raw bool
}

// A lazyLayout is the layout of a set of more than smallSet rules once
// made (nil before), and its state until then.
type lazyLayout struct {
	atomic.Pointer[bigSet]
	// asked weighs the scans of a lazy set before its layout (claim).
	asked atomic.Int32
	// dirs holds the bits below (bits: the state takes 24 bytes), set by Parse
	// or once by a lazy set's first compile (compileLazy) before publishing.
	dirs atomic.Uint32
	// A lazy set compiles the rules of the records srcN from srcLo in
	// file.more.recs (record srcLo alone if srcN is 0) as it is laid out.
	srcLo, srcN int32
}

// The bits of lazyLayout.dirs.
const (
	dirsOmitted = 1 << iota // compile left out plain directory rules (leaveOut)
	dirsFolded              // and folded others (dirs.go, tryFolded)
	isLazy                  // the set is lazy (lazySet)
)

// links are the up links of the second run of a layout: a rule index, -1
// or inRun for each rule. When every rule of the run can keep its own, it
// is kept in the rule's need byte (0 in a rule that is not a wildcard
// rule): 0 for -1, linkInRun for inRun, or how many rules back the link
// is, below linkFar. Otherwise every link is kept in all, plus 2.
type links struct {
	all []uint16
}

const (
	linkFar   = 254
	linkInRun = 255
)

// A shape says how a compiled pattern matches: its head is a prefix of the
// path, or the whole path; or it has a wildcard, or one and a final "$".
type shape uint8

const (
	shapePrefix shape = iota
	shapeExact
	shapeWildcard
	shapeAnchored
)

// A rule is a compiled allow or disallow line, in 8 bytes, from the least
// significant bit:
//
//	 0     19  20  21     36 37   44 45   46   47      48        63
//	┌────────┬───┬─────────┬──────┬───────┬──────┬────────────┐
//	│  off   │raw│  head   │ need │ shape │allow │  priority  │
//	└────────┴───┴─────────┴──────┴───────┴──────┴────────────┘
//
// off is the pattern's offset in the kept text; raw is set when escaping
// changes it (escapeChanges), and the rest is of the escaped pattern. head
// is the literal head's length; need, for a wildcard rule, the bytes a
// path must hold to match (byteBit), reused by a table's marks and
// makeLinks. The top 17 bits are the rank, priority then allow. The line
// (Robots.ruleAt) is looked up only by Decide, to quote; Parse keeps the
// patterns in file order, so of two rules the earlier line has the lower
// offset, which breaks Decide's ties (match.beatenBy).
type rule uint64

const (
	ruleRawBit     = 20
	ruleRaw        = 1 << ruleRawBit
	ruleOffBits    = ruleRawBit + 1 // with raw
	ruleHeadShift  = ruleOffBits
	ruleHeadBits   = 16
	ruleNeedShift  = ruleHeadShift + ruleHeadBits
	ruleShapeShift = ruleNeedShift + 8
	ruleRankShift  = ruleShapeShift + 2 // of the rank: priority<<1 | allow
	ruleAllow      = 1 << ruleRankShift
)

const (
	allowBit  = 1 << lines.LineBits // in a precedence key
	prioShift = lines.LineBits + 1  // of the priority in a precedence key
	keyBits   = prioShift + 16      // of a precedence key
)

// A source is what the engine reads of a file: the kept text, which holds
// the rules' patterns, and the compiled rules of its sets.
type source struct {
	text     string
	compiled []rule
}

// A ruleSet is the compiled rules of one or more records.
type ruleSet struct {
	// The rules are n from lo in src.compiled: by key, greatest first, in
	// a set of at most smallSet; else in file order until laid out. A lazy
	// set (lazySet) counts its rule lines in n. A record read from the line
	// table (scanLines) has lo ^rec and n its rule lines (<= scannedMax).
	src   *source
	lo, n int32
	big   *lazyLayout // of a set of over smallSet rules or rule lines, else nil
}

// smallSet is the size up to which a set is searched linearly.
const smallSet = 32

// A match is the best rule found so far for a path.
type match struct {
	rule   rule   // zero while no rule matched
	rank   uint32 // of rule
	has    uint8  // byteSet of the path, once hasSet
	hasSet bool
	quote  bool // for Decide: of equal ranks the earliest line wins, not the first found
	work   int  // bytes of path handed to matchWildcard, which a scan weighs (lazy.go)
}

// mayDecide reports whether a rule whose pattern starts with c may match a
// path: every path starts with "/", which "*" matches too. Other rules are
// never compiled.
func mayDecide(c byte) bool { return c == '/' || c == '*' }

func (r rule) off() uint32 { return uint32(r & (ruleRaw - 1)) }

// headLen returns the length of the literal head of the pattern of r.
func (r rule) headLen() int { return int(r >> ruleHeadShift & (1<<ruleHeadBits - 1)) }

// priority returns the priority of r, the length of its escaped pattern.
func (r rule) priority() int { return int(r >> (ruleRankShift + 1)) }

func (l *lazyLayout) lazy() bool    { return l.dirs.Load()&isLazy != 0 }
func (l *lazyLayout) omitted() bool { return l.dirs.Load()&dirsOmitted != 0 }
func (l *lazyLayout) folded() bool  { return l.dirs.Load()&dirsFolded != 0 }

// sizeClasses are the object sizes of Go's allocator up to 32 KiB
// (internal/runtime/gc.SizeClassToSize).
var sizeClasses = [...]uint16{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160,
	176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640,
	704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200,
	3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// allocSize returns the bytes the heap spends on an allocation of n bytes:
// its size class, or n itself for a large object.
func allocSize(n int) int {
	if n <= 0 {
		return 0
	}
	for _, c := range sizeClasses {
		if int(c) >= n {
			return int(c)
		}
	}
	return n
}

// sliceSize returns the bytes of the array of a slice of c elements of
// type E (unsafe.Sizeof is a constant: no pointer is converted).
func sliceSize[E any](c int) int {
	var e E
	return allocSize(c * int(unsafe.Sizeof(e)))
}

func objectSize[T any]() int {
	var v T
	return allocSize(int(unsafe.Sizeof(v)))
}
