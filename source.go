package robots

// The lines of a file as a parsed Robots keeps them: not as Agent and Rule
// values, which hold strings and ints (40 and 48 bytes), but as entries of
// a line table (lines.go), about one or two bytes each, beside the kept
// text; Records, Extras, Sitemaps and the rule a Decision quotes are
// rebuilt from them on demand.
//
// The kept text is not the body: it holds only the values Parse uses (agent
// tokens, patterns, the keys and values of extras, sitemaps), one after the
// other, without keys, comments, blank lines, whitespace or unknown lines,
// and each agent value once. Its values are followed by the line table,
// which keeps the kind of each line, its number (as the gap from the
// previous line's) and the length of its value.

// A srcLine is a user-agent, allow, disallow, sitemap or extra line as the
// line table decodes it: where its value is in the kept text, its line
// number and, for a rule, whether it allows. Its bits, from the least
// significant:
//
//	 0      20 21      37 38      57  58
//	┌─────────┬──────────┬──────────┬─────┐
//	│  offset │  length  │   line   │allow│
//	└─────────┴──────────┴──────────┴─────┘
//
// The values of the kept text are at most the MaxSize bytes of the body,
// each as written, fewer than 1<<19 bytes; a value has at most maxLineLen
// bytes; a file has fewer than 1<<lineBits lines.
type srcLine uint64

const (
	srcOffBits  = 21
	srcLenBits  = 17
	srcLenShift = srcOffBits
	srcLineShft = srcOffBits + srcLenBits
	srcAllow    = 1 << (srcLineShft + lineBits)
)

// newSrcLine returns the line numbered line whose value is n bytes at
// offset off of the kept text.
func newSrcLine(off, n, line int, allow bool) srcLine {
	l := srcLine(off) | srcLine(n)<<srcLenShift | srcLine(line)<<srcLineShft
	if allow {
		l |= srcAllow
	}
	return l
}

// off returns the offset of the value in the kept text.
func (l srcLine) off() uint32 { return uint32(l & (1<<srcOffBits - 1)) }

// value returns the value of the line, as written.
func (l srcLine) value(text string) string {
	off := l.off()
	return text[off : off+l.size()]
}

// size returns the length of the value.
func (l srcLine) size() uint32 { return uint32(l >> srcLenShift & (1<<srcLenBits - 1)) }

// line returns the 1-based line number.
func (l srcLine) line() int { return int(l >> srcLineShft & maxLine) }

// allow reports whether the line is an allow rule.
func (l srcLine) allow() bool { return l&srcAllow != 0 }

// rule returns the line as a Rule.
func (l srcLine) rule(text string) Rule {
	return Rule{Allow: l.allow(), Pattern: l.value(text), Line: l.line()}
}

// agent returns the line as an Agent.
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
