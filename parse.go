package robots

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
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
// copying it would cost Parse + first question (BenchmarkParseCorpus;
// bench/RESULTS.md, "What each mechanism buys").
func parseWith(data []byte, ps *parseScratch) *Robots {
	p := parser{src: unsafe.String(unsafe.SliceData(data), len(data)), r: &Robots{},
		text: ps.text, lines: lines.Writer{Buf: ps.lines, Marks: ps.marks[:0]}, starts: ps.starts[:0], rs: &ps.resolve}
	p.parse()
	ps.text, ps.lines, ps.marks, ps.starts = p.text, p.lines.Buf, p.lines.Marks, p.starts
	return p.r
}

// MaxSize is the number of bytes of a robots.txt file that are read
// (500 KiB, as Google's crawlers apply). Whatever follows is ignored.
const MaxSize = 500 << 10

// A parser turns a body into a Robots: the kept text (values, as written),
// the line table (internal/lines/table.go) and, in rs, what resolve makes the groups of.
type parser struct {
	r      *Robots
	src    string // the caller's bytes: nothing kept may refer to it
	text   []byte
	lines  lines.Writer
	starts []uint32 // the entry of each record's first user-agent line
	// ruled reports that the current record has a rule line, after which
	// a user-agent line starts a record.
	ruled, mayMatch bool
	// recent holds the last agentReuse user-agent lines, the last at
	// recent[(agents-1)%agentReuse], for agentText.
	recent [agentReuse]lines.Line
	agents int
	rs     *resolveScratch
}

// addText appends v to the kept text and returns its offset there.
func (p *parser) addText(v string) int {
	off := len(p.text)
	p.text = append(p.text, v...)
	return off
}

// userAgent adds the user-agent line numbered n of value v, which starts a
// record after a rule line.
func (p *parser) userAgent(v string, n int) {
	if len(p.starts) == 0 || p.ruled {
		p.starts = append(p.starts, p.lines.N)
		p.rs.first = append(p.rs.first, int32(len(p.rs.rules)))
		p.ruled = false
	}
	a := lines.NewLine(p.agentText(v), len(v), n, false)
	p.rs.addAgent(v, a.Off())
	p.recent[p.agents%agentReuse] = a
	p.agents++
	p.lines.Add(lines.KindUserAgent, a, 0)
}

// agentText returns the offset in the kept text of agent value v, appended
// unless one of the last agentReuse user-agent lines had the same value:
// one-agent-many keeps 0.81 bytes a byte at MaxSize, not 0.88
// (TestKeptPerByte).
func (p *parser) agentText(v string) int {
	for _, a := range p.recent[:min(p.agents, agentReuse)] {
		if int(a.Size()) == len(v) && string(p.text[a.Off():int(a.Off())+len(v)]) == v {
			return int(a.Off())
		}
	}
	return p.addText(v)
}

const agentReuse = 8

func (p *parser) parse() {
	p.lines.Buf = p.lines.Buf[:0]
	p.text = slices.Grow(p.text[:0], len(p.src))
	p.scan()
	p.finish()
}

// scan hands the lines to p.directive: the blank, comment and common ones
// read as they are scanned (lines.Scanner.Common), the others through
// p.handle.
func (p *parser) scan() {
	if p.rs == nil {
		p.rs = new(resolveScratch)
	}
	rs := p.rs
	rs.rules, rs.first, rs.names, rs.global = rs.rules[:0], rs.first[:0], rs.names[:0], rs.global[:0]
	ls := lines.NewScanner(lines.SkipBOM(p.src))
	for {
		// Blank, comment and common lines, read as they are scanned.
		for kind, v, ok := ls.Common(); ok; kind, v, ok = ls.Common() {
			if kind != lines.KindNone {
				p.directive(kind, "", v, ls.Num())
			}
		}
		if !ls.Next() {
			return
		}
		if !ls.Blank() {
			p.handle(&ls)
		}
	}
}

// handle splits the current line of ls into its directive and keeps it.
func (p *parser) handle(ls *lines.Scanner) {
	kind, key, value := lines.SplitDirective(ls.Content())
	p.directive(kind, key, value, ls.Num())
}

// directive keeps the line numbered n: a user-agent line, a rule line of
// a record (one before any user-agent line is not kept), a sitemap or an
// extra.
func (p *parser) directive(kind lines.Kind, key, value string, n int) {
	switch kind {
	case lines.KindUserAgent:
		p.userAgent(value, n)
	case lines.KindAllow, lines.KindDisallow:
		if len(p.starts) == 0 {
			return
		}
		p.ruled = true
		if value != "" && ruleset.MayDecide(value[0]) {
			p.mayMatch = true
		}
		l := lines.NewLine(p.addText(value), len(value), n, kind == lines.KindAllow)
		p.rs.rules = append(p.rs.rules, l)
		p.lines.Add(kind, l, 0)
	case lines.KindSitemap:
		if value != "" {
			p.lines.Add(lines.KindSitemap, lines.NewLine(p.addText(value), len(value), n, false), 0)
		}
	case lines.KindOther:
		p.addText(key)
		p.lines.Add(lines.KindOther, lines.NewLine(p.addText(value), len(value), n, false), len(key))
	}
}

// finish gives r the kept text, line table and index as one string of
// their exact size (a strings.Builder does not clear what it will write),
// then its groups (resolve.go); the parser's slices stay scratch.
func (p *parser) finish() {
	r := p.r
	r.mayMatch = p.mayMatch
	linesAt := uint32(len(p.text))
	indexAt := linesAt + uint32(len(p.lines.Buf))
	if len(p.lines.Buf) > 0 {
		p.lines.Buf = lines.AppendIndex(p.lines.Buf, p.starts, p.lines.Marks)
	}
	var text string
	if size := len(p.text) + len(p.lines.Buf); size > 0 {
		var b strings.Builder
		b.Grow(size)
		b.Write(p.text)
		b.Write(p.lines.Buf)
		text = b.String()
	}
	r.src.SetText(text, linesAt, indexAt)
	r.size = heapsize.Object[Robots]() + heapsize.Alloc(len(r.src.Text())) + r.resolve(p.rs)
}

// A parseScratch holds the slices a Parse throws away, the parser's and
// resolve's, lent by a pool from one call to the next (what it buys:
// BenchmarkParseCorpus/op=parse+query; bench/RESULTS.md, "What each mechanism buys"). Integers only, so
// that a pooled scratch keeps no file alive and costs the collector no scan.
type parseScratch struct {
	text, lines []byte
	marks       []lines.Mark
	starts      []uint32
	resolve     resolveScratch
}

var scratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// maxPooled is the size of a body past which its scratch (a few bytes a
// byte of body) is not pooled, so that a file of MaxSize does not make
// every later Parse hold as much. Pooling up to it cut what Parse allocates
// over the corpus by a third (8.25 to 5.26 MB).
const maxPooled = 256 << 10
