package robots

import (
	"slices"
	"strings"
	"sync"
	"unsafe"
)

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
	if len(data) <= maxPooled {
		scratchPool.Put(ps)
	}
	return r
}

// parseWith parses data, at most MaxSize bytes, in the scratch space ps.
// data is read in place (unsafe.String; what the result keeps is copied):
// copying it would cost 7.5% of Parse + first question.
func parseWith(data []byte, ps *parseScratch) *Robots {
	p := parser{src: unsafe.String(unsafe.SliceData(data), len(data)), r: &Robots{},
		text: ps.text, lines: lineWriter{buf: ps.lines, marks: ps.marks[:0]}, starts: ps.starts[:0], rs: &ps.resolve}
	p.parse()
	ps.text, ps.lines, ps.marks, ps.starts = p.text, p.lines.buf, p.lines.marks, p.starts
	return p.r
}

// A parser turns a body into a Robots: the kept text (values, as written),
// the line table (lines.go) and, in rs, what resolve makes the groups of.
type parser struct {
	r      *Robots
	src    string // the caller's bytes: nothing kept may refer to it
	text   []byte
	lines  lineWriter
	starts []uint32 // the entry of each record's first user-agent line
	// ruled reports that the current record has a rule line, after which
	// a user-agent line starts a record.
	ruled, mayMatch bool
	// recent holds the last agentReuse user-agent lines, the last at
	// recent[(agents-1)%agentReuse], for agentText.
	recent [agentReuse]srcLine
	agents int
	rs     *resolveScratch
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
	p.lines.add(kindUserAgent, a, 0)
	return newRecord
}

// agentText returns the offset in the kept text of agent value v, appended
// unless one of the last agentReuse user-agent lines had the same value:
// one-agent-many keeps 0.81 bytes a byte at MaxSize, not 0.88
// (TestKeptPerByte).
func (p *parser) agentText(v string) int {
	for _, a := range p.recent[:min(p.agents, agentReuse)] {
		if int(a.size()) == len(v) && string(p.text[a.off():int(a.off())+len(v)]) == v {
			return int(a.off())
		}
	}
	return p.addText(v)
}

const agentReuse = 8

func (p *parser) parse() {
	// A directive takes about a byte of table, a real line over 16: the
	// table grows once at most (sizing it exactly cost 3% of Parse).
	p.lines.buf = slices.Grow(p.lines.buf[:0], len(p.src)/8+64)
	p.text = slices.Grow(p.text[:0], len(p.src))
	p.scan(nil)
	p.finish()
}

// scan hands each line to p.handle, then to f unless nil (Check); with f
// nil, only the lines scanCommon does not read.
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

func (p *parser) handle(ls *lineScanner) line {
	l := line{n: ls.n, text: ls.text()}
	l.kind, l.key, l.value = splitDirective(ls.content())
	l.newRecord, l.kept = p.directive(l.kind, l.key, l.value, l.n)
	return l
}

// directive keeps the line numbered n, and reports whether it is a
// user-agent line that starts a record, or a rule line of a record (one
// before any user-agent line is not kept).
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
		p.lines.add(kind, l, 0)
		return false, true
	case kindSitemap:
		if value != "" {
			p.lines.add(kindSitemap, newSrcLine(p.addText(value), len(value), n, false), 0)
		}
	case kindOther:
		p.addText(key)
		p.lines.add(kindOther, newSrcLine(p.addText(value), len(value), n, false), len(key))
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

// scanCommon handles the lines from ls.off on while each is blank, a
// comment alone, or a commonKey line of at most maxLineLen bytes, and
// leaves ls at the first other line: a common line read as it is scanned
// for its end buys 13% of Parse + first question
// (BenchmarkParseCorpus/op=parse+query, paired).
func (p *parser) scanCommon(ls *lineScanner) {
	s, off, n := ls.s, ls.off, ls.n
	for off < len(s) {
		start := off
		if isStop(s[start]) { // a blank line, or a comment alone
			off = pastBreak(s, breakAt(s, start))
			n++
			continue
		}
		if start+8 > len(s) {
			break
		}
		kind, keyLen := commonKey(s[start:])
		if keyLen == 0 {
			break
		}
		// A longer line is left to ls.next without reading all of it.
		line := s[:min(len(s), start+maxLineLen+1)]
		v := start + keyLen + 1 // past the colon
		for v < len(line) && isBlank(line[v]) {
			v++
		}
		cut := nextStop(line, v)
		if cut-start > maxLineLen {
			break
		}
		off = pastBreak(s, breakAt(s, cut))
		n++
		vend := cut
		for vend > v && isSpace(s[vend-1]) {
			vend--
		}
		p.directive(kind, "", s[v:vend], n)
	}
	ls.off, ls.n = off, n
}

// isBlank reports whether c is whitespace that does not end a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// A parseScratch holds the slices a Parse throws away, the parser's and
// resolve's, lent by a pool from one call to the next: 34% of Parse + first
// question (BenchmarkParseCorpus/op=parse+query, paired). Integers only, so
// that a pooled scratch keeps no file alive and costs the collector no scan.
type parseScratch struct {
	text, lines []byte
	marks       []lineMark
	starts      []uint32
	resolve     resolveScratch
}

var scratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// maxPooled is the size of a body past which its scratch (a few bytes a
// byte of body) is not pooled, so that a file of MaxSize does not make
// every later Parse hold as much. Pooling up to it cut what Parse allocates
// over the corpus by a third (8.25 to 5.26 MB).
const maxPooled = 256 << 10
