package robots

import (
	"slices"
	"strings"
	"unsafe"
)

const (
	// MaxSize is the number of bytes of a robots.txt file that are read
	// (500 KiB, as Google's crawlers apply). Whatever follows is ignored.
	MaxSize = 500 << 10

	// maxLineLen is the number of bytes of a line that are kept, the rest
	// dropped: the reference reads lines into 2083 × 8 bytes, of which
	// the last holds the terminating NUL and one more is lost to its
	// end-of-buffer check.
	maxLineLen = 2083*8 - 1
)

// utf8BOM is the byte order mark some editors write at the start of a file.
const utf8BOM = "\xEF\xBB\xBF"

// Parse parses the body of a robots.txt file.
//
// Parse never fails: lines that are not valid directives are skipped, as
// Google does. Only the first MaxSize bytes of data are read. The result does
// not refer to data, which the caller may reuse.
func Parse(data []byte) *Robots {
	if len(data) > MaxSize {
		data = data[:MaxSize]
	}
	ps := scratchPool.Get().(*parseScratch)
	r := parseWith(data, ps)
	putScratch(ps)
	return r
}

// parseWith parses data, at most MaxSize bytes, in the scratch space ps.
func parseWith(data []byte, ps *parseScratch) *Robots {
	// data is read in place (unsafe.String): what the result keeps is
	// copied. A copy of data instead costs 7.5% of Parse + first question
	// (19.08 against 17.75 ms of CPU a corpus pass, BenchmarkParseCorpus).
	p := parser{src: unsafe.String(unsafe.SliceData(data), len(data)), r: &Robots{},
		text: ps.text, lines: lineWriter{buf: ps.lines, marks: ps.marks[:0]}, starts: ps.starts[:0], rs: &ps.resolve}
	p.parse()
	ps.text, ps.lines, ps.marks, ps.starts = p.text, p.lines.buf, p.lines.marks, p.starts
	return p.r
}

// A parser turns a body into a Robots: the kept text (values, as written),
// the line table (lines.go) and, in rs, what resolve makes the groups of.
type parser struct {
	r *Robots
	// src is the body; nothing of the result may refer to it (Parse reads
	// the caller's bytes in place).
	src   string
	text  []byte
	lines lineWriter
	// starts holds the entry of the first user-agent line of each record.
	starts []uint32
	// ruled reports that the current record has a rule line, after which
	// a user-agent line starts a record; mayMatch, Robots.mayMatch.
	ruled, mayMatch bool
	// recent holds the last agentReuse user-agent lines, the last at
	// recent[(agents-1)%agentReuse], for agentText.
	recent [agentReuse]srcLine
	agents int
	rs     *resolveScratch
}

// mayDecide reports whether a rule whose pattern starts with c may match a
// path: every path starts with "/", which "*" matches too. Other rules are
// never compiled.
func mayDecide(c byte) bool { return c == '/' || c == '*' }

// add appends line l of kind kind to the line table; keyLen is the length
// of the key of an extra, kept just before its value.
func (p *parser) add(kind lineKind, l srcLine, keyLen int) {
	p.lines.add(kind, l, keyLen, len(p.text))
}

// addText appends v to the kept text and returns its offset there.
func (p *parser) addText(v string) int {
	off := len(p.text)
	p.text = append(p.text, v...)
	return off
}

// userAgent adds the user-agent line numbered n of value v, and reports
// whether it starts a record.
func (p *parser) userAgent(v string, n int) bool {
	newRecord := len(p.starts) == 0 || p.ruled
	if newRecord {
		p.starts = append(p.starts, p.lines.n)
		p.rs.first = append(p.rs.first, int32(len(p.rs.rules)))
		p.ruled = false
	}
	a := newSrcLine(p.agentText(v), len(v), n, false)
	p.rs.addAgent(v, a.off())
	p.recent[p.agents%agentReuse] = a
	p.agents++
	p.add(kindUserAgent, a, 0)
	return newRecord
}

// agentText returns the offset in the kept text of agent value v, appended
// unless one of the last agentReuse user-agent lines had the same value.
//
// What it buys: hostile/one-agent-many keeps 0.81 bytes a byte with it,
// 0.88 without, and 1.50, the bound, at 4 KiB (TestKeptPerByteSmallFiles).
func (p *parser) agentText(v string) int {
	for _, a := range p.recent[:min(p.agents, agentReuse)] {
		if int(a.size()) == len(v) && string(p.text[a.off():int(a.off())+len(v)]) == v {
			return int(a.off())
		}
	}
	return p.addText(v)
}

const agentReuse = 8

// parse reads the lines of the body (scan) and gives r what it keeps
// (finish).
func (p *parser) parse() {
	// Most directives take a byte of table and real lines average over 16
	// bytes: the table grows once or not at all (sizing it exactly, by
	// counting colons, cost 3% of Parse). The kept text is at most the
	// body.
	p.lines.buf = slices.Grow(p.lines.buf[:0], len(p.src)/8+64)
	p.text = slices.Grow(p.text[:0], len(p.src))
	p.scan(nil)
	p.finish()
}

// scan hands each line of the body to p.handle, then, unless f is nil, to
// f, which sees what p.handle made of it: Check drives the parser so.
// Parse's loop (f nil) hands handle only the lines scanCommon does not read.
func (p *parser) scan(f func(line)) {
	if p.rs == nil {
		p.rs = new(resolveScratch)
	}
	rs := p.rs
	rs.rules, rs.first, rs.names, rs.global = rs.rules[:0], rs.first[:0], rs.names[:0], rs.global[:0]
	ls := newLineScanner(skipBOM(p.src))
	if f == nil {
		for {
			p.scanCommon(&ls)
			if !ls.next() {
				return
			}
			if ls.cut > ls.start { // else blank or a comment alone
				p.handle(&ls)
			}
		}
	}
	for ls.next() {
		f(p.handle(&ls))
	}
}

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

// handle parses the current line of ls.
func (p *parser) handle(ls *lineScanner) line {
	l := line{n: ls.n, text: ls.text()}
	l.kind, l.key, l.value = splitDirective(ls.content())
	l.newRecord, l.kept = p.directive(l.kind, l.key, l.value, l.n)
	return l
}

// directive keeps the line numbered n of kind kind, key and value, and
// reports whether it is a user-agent line that starts a record, or a rule
// line of a record (one before any user-agent line is not kept).
func (p *parser) directive(kind lineKind, key, value string, n int) (newRecord, kept bool) {
	switch kind {
	case kindUserAgent:
		return p.userAgent(value, n), false
	case kindAllow, kindDisallow:
		if len(p.starts) == 0 {
			return false, false
		}
		p.ruled = true
		if value != "" && mayDecide(value[0]) {
			p.mayMatch = true
		}
		l := newSrcLine(p.addText(value), len(value), n, kind == kindAllow)
		p.rs.rules = append(p.rs.rules, l)
		p.add(kind, l, 0)
		return false, true
	case kindSitemap:
		if value != "" {
			p.add(kindSitemap, newSrcLine(p.addText(value), len(value), n, false), 0)
		}
	case kindOther:
		p.addText(key)
		p.add(kindOther, newSrcLine(p.addText(value), len(value), n, false), len(key))
	}
	return false, false
}

// finish gives r the kept text, line table and index as one string of
// their exact size (a strings.Builder does not clear what it will write),
// then its groups (resolve.go); the parser's slices stay scratch.
func (p *parser) finish() {
	r := p.r
	r.mayMatch = p.mayMatch
	r.linesAt = uint32(len(p.text))
	r.indexAt = r.linesAt + uint32(len(p.lines.buf))
	if len(p.lines.buf) > 0 {
		p.lines.buf = appendIndex(p.lines.buf, p.starts, p.lines.marks)
	}
	if size := len(p.text) + len(p.lines.buf); size > 0 {
		var b strings.Builder
		b.Grow(size)
		b.Write(p.text)
		b.Write(p.lines.buf)
		r.text = b.String()
	}
	r.size = objectSize[Robots]() + allocSize(len(r.text)) + r.resolve(p.rs)
}

// extend returns s with n more zero elements, doubling its capacity when
// that is short.
func extend[S ~[]E, E any](s S, n int) S {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(len(s), n))
	}
	return s[:len(s)+n]
}
