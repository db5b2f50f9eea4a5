package robots

// The data layout of a parsed file (DESIGN.md, "Data layout"): types and
// constants, and one function (mayDecide, which says which rules are
// compiled); their methods live with the code that uses them.

import "sync/atomic"

// A namedGroup is the group of a product token, as written in one of its
// lines in the kept text. Its bits, low first: the token's offset
// (srcOffBits) and length (srcLenBits), and the ref of its group: record
// ref alone if ref >= 0, else more.multi[^ref].
type namedGroup uint64

const namedRefShift = srcLenShift + srcLenBits

// A moreGroups holds a file's groups of several records, their lists of
// records (Group.records), and the records' own sets of more than smallSet
// rules, which their recSet indexes.
type moreGroups struct {
	multi []multiGroup
	recs  []int32
	bigs  []bigOf
}

// A multiGroup is a Group of several records as moreGroups keeps it, in
// 40 bytes rather than 56 (no file, no policy): hostile/one-agent-many
// keeps 1.36 bytes a byte at 4 KiB, 1.49 with Groups (bound 1.5,
// TestKeptPerByteSmallFiles).
type multiGroup struct {
	lo, n                      int32
	big                        *lazyLayout
	recLo, recN, restLo, restN int32
	named, ruled, split        bool
}

// A bigOf is the own set of a record of more than smallSet rules.
type bigOf struct {
	lo, n int32
	big   *lazyLayout
}

// A dirList holds the directories of a laid-out set (bigSet.dirs),
// sorted, 3 bytes each: the index of its index.htm rule (below maxLaid),
// low byte first, then the rule's priority less the length of the
// directory, escaped (below 256: plainDir).
type dirList struct {
	b []byte
}

// The fields of a rule that the marks of a table reuse.
const (
	needBits  = 0xFF << ruleNeedShift
	shapeBits = 3 << ruleShapeShft
)

// A floatTable finds the wildcard rules of a large set. Each rule is filed
// under an anchor, the cheapest run of 1-3 literal bytes after its head; a
// question looks up the bucket of each gram at each position of its path
// (floatQuery.try), so the cost grows with the path, not the number of
// rules. Bucket b holds the rules start[b] to start[b+1] of the run: the
// single ones (markSingle), then the others, each by key, greatest first.
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

// A Record is one group as written in a file: user-agent lines and the
// allow and disallow rules that follow them. Records that name the same
// agent are merged when a question is answered.
type Record struct {
	Agents []Agent // the user-agent lines, in file order
	Rules  []Rule  // the allow and disallow lines, in file order
}

// An Agent is one user-agent line.
type Agent struct {
	Value string // as written, without comment or surrounding space
	// Token is what the line is matched with: "*", or the longest prefix
	// of Value of letters, "-" and "_" ("MJ12bot" gives "MJ").
	Token string
	Line  int // the 1-based line number
}

// A Rule is one allow or disallow line.
type Rule struct {
	Allow   bool   // an allow rule; false for disallow
	Pattern string // the value as written, without comment or surrounding space
	Line    int    // the 1-based line number
}

// A Group is the set of rules that applies to one crawler, or to several
// crawlers asking together, resolved once so that many URLs can be checked
// cheaply. Get one from Robots.Group. A Group is immutable and safe for
// concurrent use. A nil *Group allows everything.
type Group struct {
	// set is the merged rules of the records that apply (set.n is 0 if
	// none); of a split group (resolve), of some of them, and the own
	// sets of the rest are asked one by one.
	set ruleSet
	// file holds the group's records: record recLo if recN is 1, else
	// recN from recLo in file.more.recs; a split group's rest are restN
	// from restLo there.
	file          *Robots
	recLo, recN   int32
	restLo, restN int32
	named         bool   // a user-agent line named the agent; else the records name "*"
	ruled         bool   // some record has a rule line
	split         bool   // past the merge budget (resolve)
	policy        policy // overrides the rules for files that were not fetched
}

// A policy says whether a Robots holds parsed rules or a blanket answer.
type policy uint8

const (
	policyRules       policy = iota // answer from the rules
	policyAllowAll                  // everything is allowed
	policyDisallowAll               // everything but /robots.txt is disallowed
)

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
	// asked counts the questions before the layout (a few more than
	// layoutQuestions if questions race).
	asked atomic.Int32
	// dirs holds the bits below, set before the compiled rules are
	// published (bits, so that the layout takes 32 bytes).
	dirs atomic.Uint32
	// A lazy set compiles the rules of the records srcN from srcLo in
	// file.more.recs (record srcLo alone if srcN is 0) into own, in file
	// order, until it is laid out: then own is nil again.
	srcLo, srcN int32
	own         atomic.Pointer[[]rule]
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

// A shape says how a compiled pattern matches.
type shape uint8

const (
	shapePrefix   shape = iota // head is a prefix of the path
	shapeExact                 // head is the whole path
	shapeWildcard              // head is a prefix and the rest matches wildcard-wise
	shapeAnchored              // shapeWildcard, to be matched up to the end of the path
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
// (Robots.ruleAt) is looked up only by Decide, to quote and break ties.
type rule uint64

const (
	ruleRawBit    = 20
	ruleRaw       = 1 << ruleRawBit
	ruleOffBits   = ruleRawBit + 1 // with raw
	ruleHeadShift = ruleOffBits
	ruleHeadBits  = 16
	ruleNeedShift = ruleHeadShift + ruleHeadBits
	ruleShapeShft = ruleNeedShift + 8
	ruleRankShift = ruleShapeShft + 2 // of the rank: priority<<1 | allow
	ruleAllow     = 1 << ruleRankShift
)

// A file of MaxSize bytes has fewer than 1<<lineBits lines.
const (
	lineBits  = 20
	maxLine   = 1<<lineBits - 1 // greater than the number of lines of any file Parse reads
	allowBit  = 1 << lineBits   // in a precedence key
	prioShift = lineBits + 1    // of the priority in a precedence key
	keyBits   = prioShift + 16  // of a precedence key
)

// A ruleSet is the compiled rules of one or more records.
type ruleSet struct {
	// The rules are n from lo in file.compiled: by key, greatest first, in
	// a set of at most smallSet; else in file order until laid out. A lazy
	// set (lazySet) counts its rule lines in n. A record read from the line
	// table (scanRecord) has lo ^rec and n its rule lines (<= scannedMax).
	file  *Robots
	lo, n int32
	// big is the state and layout of a set of more than smallSet rules or
	// rule lines (lazy.go, index.go), nil in smaller ones.
	big *lazyLayout
}

// A recSet is the set of one record alone, as Robots.sets keeps it, in 4
// bytes, from the least significant bit: n (6), ruled (1: the record has a
// rule line), lo (25). n is recSetBig for more than smallSet rules (lo:
// its index in moreGroups.bigs), recSetLines for a set read from the line
// table (lo: its rule lines).
type recSet uint32

const (
	recSetBig   = 1<<6 - 1 // more than smallSet
	recSetLines = 1<<6 - 2 // not compiled
	recSetRuled = 1 << 6
	recSetLo    = 7
)

// smallSet is the size up to which a set is searched linearly.
const smallSet = 32

// A match is the best rule found so far for a path.
type match struct {
	file   *Robots // of the sets asked, once a rule matched
	rule   rule    // zero while no rule matched
	rank   uint32  // of rule
	has    uint8   // byteSet of the path, once hasSet
	hasSet bool
	// quote: the rule is quoted (Decide), and of equal ranks the earliest
	// line wins; else the first found is kept.
	quote bool
}

// mayDecide reports whether a rule whose pattern starts with c may match a
// path: every path starts with "/", which "*" matches too. Other rules are
// never compiled.
func mayDecide(c byte) bool { return c == '/' || c == '*' }

// A lineKind says what a line is, by its key.
type lineKind uint8

const (
	kindNone      lineKind = iota // not a directive: blank, comment only, or invalid
	kindUserAgent                 // user-agent
	kindAllow                     // allow
	kindDisallow                  // disallow
	kindSitemap                   // sitemap
	kindOther                     // any other key, such as crawl-delay
)

// A line is what the parser made of one physical line.
type line struct {
	n          int // its 1-based number
	text       string
	kind       lineKind
	key, value string
	// newRecord reports that a user-agent line started a record; kept,
	// that an allow or disallow line belongs to a record.
	newRecord, kept bool
}

// Robots is a parsed robots.txt file, ready to answer questions.
// The zero value, like a nil *Robots, is an empty file: it allows
// everything.
type Robots struct {
	// text holds the kept values, then from linesAt the line table and
	// from indexAt its index (lines.go).
	text             string
	linesAt, indexAt uint32

	policy policy // set for AllowAll and DisallowAll
	// mayMatch reports that some rule may match a path (mayDecide).
	mayMatch bool
	// global is the group of "*": none if 0, record global-1 alone if
	// positive, else more.multi[^global].
	global int32
	// named holds the group of each product token, sorted by token.
	named []namedGroup
	// sets holds each record's own set, compiled the rules of every set.
	sets     []recSet
	compiled []rule
	more     *moreGroups // nil in most files

	// size is what Parse kept (memsize.go), lazySize what questions built.
	size     int
	lazySize atomic.Int64
}

// A srcLine is a user-agent, allow, disallow, sitemap or extra line as the
// line table decodes it. Its bits, from the least significant: the offset
// of its value in the kept text (21, which holds at most MaxSize bytes), the
// value's length (17, at most maxLineLen), its 1-based number (lineBits),
// and whether it is an allow rule.
type srcLine uint64

const (
	srcOffBits  = 21
	srcLenBits  = 17
	srcLenShift = srcOffBits
	srcLineShft = srcOffBits + srcLenBits
	srcAllow    = 1 << (srcLineShft + lineBits)
)

func (r rule) off() uint32 { return uint32(r & (ruleRaw - 1)) }

// headLen returns the length of the literal head of the pattern of r.
func (r rule) headLen() int { return int(r >> ruleHeadShift & (1<<ruleHeadBits - 1)) }

// priority returns the priority of r, the length of its escaped pattern.
func (r rule) priority() int { return int(r >> (ruleRankShift + 1)) }

func (l srcLine) off() uint32 { return uint32(l & (1<<srcOffBits - 1)) }

func (l srcLine) size() uint32 { return uint32(l >> srcLenShift & (1<<srcLenBits - 1)) }

func (l srcLine) line() int { return int(l >> srcLineShft & maxLine) }

func (l srcLine) allow() bool { return l&srcAllow != 0 }

func (l srcLine) value(text string) string {
	off := l.off()
	return text[off : off+l.size()]
}

func (l srcLine) rule(text string) Rule {
	return Rule{Allow: l.allow(), Pattern: l.value(text), Line: l.line()}
}

func (l *lazyLayout) lazy() bool { return l.dirs.Load()&isLazy != 0 }

func (l *lazyLayout) omitted() bool { return l.dirs.Load()&dirsOmitted != 0 }

func (l *lazyLayout) folded() bool { return l.dirs.Load()&dirsFolded != 0 }

// compiled returns the compiled rules of a lazy set, or none before it
// is compiled and once it is laid out.
func (l *lazyLayout) compiled() []rule {
	if p := l.own.Load(); p != nil {
		return *p
	}
	return nil
}
