package lint

// The rules of each record, collected as the parser collects them and
// compiled as the engine compiles a group's, every one kept: the rules
// that never decide.

import (
	"strconv"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// directive follows the records as the parser does: a user-agent line
// after a rule line starts one, a rule line before any user-agent line
// belongs to none; it keeps each record's rules, and whether it names "*".
func (c *checker) directive(l *line) {
	switch l.kind {
	case lines.KindUserAgent:
		if l.newRecord = len(c.rules) == 0 || c.ruled; l.newRecord {
			c.rules, c.global, c.ruled = append(c.rules, nil), append(c.global, false), false
		}
		if lines.AgentToken(l.value) == "*" {
			c.global[len(c.global)-1] = true
		}
	case lines.KindAllow, lines.KindDisallow:
		if len(c.rules) == 0 {
			return
		}
		c.ruled, l.kept = true, true
		allow := l.kind == lines.KindAllow
		off := len(c.text)
		c.text = append(c.text, l.value...)
		last := &c.rules[len(c.rules)-1]
		*last = append(*last, lines.NewLine(off, len(l.value), l.n, allow))
		if c.byOff == nil {
			c.byOff = map[uint32]robots.Rule{}
		}
		if l.value != "" { // an empty pattern is never compiled, and shares its offset
			c.byOff[uint32(off)] = robots.Rule{Allow: allow, Pattern: l.value, Line: l.n}
		}
	}
}

// checkRules reports the rules of a record, compiled as s from text, that never
// decide, and, in a group for "*" (global), a rule that disallows all. A
// pattern that starts with neither "/" nor "*" is reported apart.
func (c *checker) checkRules(s *ruleset.Set, text string, global bool) {
	for _, d := range redundant(s, text) {
		w := c.byOff[d.Off]
		if !d.Dominated {
			if global && !w.Allow && d.All {
				c.add(w.Line, SeverityWarning, CodeDisallowAll, quoteValue(w.String())+
					" in the group for \"*\" disallows the whole site to every crawler without a group of its own:"+
					" is this a staging file in production?")
			}
			continue
		}
		v := c.byOff[d.By]
		if d.Repeat {
			c.add(w.Line, SeverityInfo, CodeDuplicateRule, quoteValue(w.String())+" repeats line "+
				strconv.Itoa(v.Line)+": it never decides")
			continue
		}
		sev := SeverityInfo
		if v.Allow != w.Allow {
			sev = SeverityWarning
		}
		c.add(w.Line, sev, CodeShadowedRule, quoteValue(w.String())+" never decides: "+
			quoteValue(v.String())+" (line "+strconv.Itoa(v.Line)+") matches whenever it does and takes precedence")
	}
}
