package robots

// The lines of a file as a parsed Robots keeps them: entries of the line
// table (lines.go, 1-2 bytes each) beside the kept values, not Agent and
// Rule values (40 and 48 bytes); Records, Extras, Sitemaps and the rule a
// Decision quotes are rebuilt from them on demand (DESIGN.md, Data layout).

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

// newSrcLine returns line number line, whose value is n bytes at off.
func newSrcLine(off, n, line int, allow bool) srcLine {
	l := srcLine(off) | srcLine(n)<<srcLenShift | srcLine(line)<<srcLineShft
	if allow {
		l |= srcAllow
	}
	return l
}

func (l srcLine) off() uint32  { return uint32(l & (1<<srcOffBits - 1)) }
func (l srcLine) size() uint32 { return uint32(l >> srcLenShift & (1<<srcLenBits - 1)) }
func (l srcLine) line() int    { return int(l >> srcLineShft & maxLine) }
func (l srcLine) allow() bool  { return l&srcAllow != 0 }

// value returns the value of the line, as written.
func (l srcLine) value(text string) string {
	off := l.off()
	return text[off : off+l.size()]
}

func (l srcLine) rule(text string) Rule {
	return Rule{Allow: l.allow(), Pattern: l.value(text), Line: l.line()}
}

func (l srcLine) agent(text string) Agent {
	v := l.value(text)
	return Agent{Value: v, Token: agentToken(v), Line: l.line()}
}

// Records returns the groups of the file as written, in file order, with
// their user-agent lines and rules. Rules before the first user-agent line
// belong to no group and are not included. The result is a copy.
func (r *Robots) Records() []Record {
	if r == nil || r.recordCount() == 0 {
		return nil
	}
	recs := make([]Record, r.recordCount())
	r.eachLine(func(e *entry, rec int) {
		switch e.kind {
		case kindUserAgent:
			recs[rec].Agents = append(recs[rec].Agents, e.l.agent(r.text))
		case kindAllow, kindDisallow:
			recs[rec].Rules = append(recs[rec].Rules, e.l.rule(r.text))
		}
	})
	return recs
}
