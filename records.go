package robots

// The records of a file as resolve reads them back from the line table:
// its rule lines, where each record's rules start, and the product tokens
// its user-agent lines name.

// readTable reads the records, rule lines and product tokens of r from
// its line table into rs, for resolve.
func (rs *resolveScratch) readTable(r *Robots) {
	rs.rules, rs.first, rs.names, rs.global = rs.rules[:0], rs.first[:0], rs.names[:0], rs.global[:0]
	n := r.recordCount()
	if n == 0 {
		return
	}
	next := r.recordStart(0) // the entry that starts the next record
	d := r.reader(0)
	var e entry
	for d.pos < len(d.lines) {
		if d.i == next {
			rs.first = push(rs.first, int32(len(rs.rules)))
			next = -1
			if len(rs.first) < n {
				next = r.recordStart(len(rs.first))
			}
		}
		d.next(&e)
		switch e.kind {
		case kindUserAgent:
			rs.addAgent(e.l.value(r.text), e.l.off())
		case kindAllow, kindDisallow:
			rs.rules = push(rs.rules, e.l)
		}
	}
}

// addAgent adds the user-agent line of value v, kept at off, to the
// current record.
func (rs *resolveScratch) addAgent(v string, off uint32) {
	rec := int32(len(rs.first) - 1)
	token := agentToken(v)
	if token == "*" {
		if len(rs.global) == 0 || rs.global[len(rs.global)-1] != rec {
			rs.global = push(rs.global, rec)
		}
		return
	}
	rs.names = push(rs.names, newNaming(token, off, rec))
}
