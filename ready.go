package robots

// When the groups of a file are made: not by Parse, which reads the lines,
// but by the first question that needs them (Allowed, Decide, Group and
// the accessors of a crawler's extras) or MemSize, from the line table.
//
// A crawler that parses a file asks it at least once, and pays about the
// same; a program that parses files it may never ask and does not size
// (a tool that reads only the sitemaps, or the records) pays for the
// lines alone.

// ready makes the groups of r, unless they are made.
func (r *Robots) ready() {
	if r.grouped.Load() == 0 {
		r.makeGroups()
	}
}

// makeGroups makes the groups of r, once: of concurrent first questions,
// one makes them while the others wait, under the lock of layOut. What
// they keep is counted in MemSize from then on, as the indexes built
// since Parse are.
func (r *Robots) makeGroups() {
	r.layMu.Lock()
	defer r.layMu.Unlock()
	if r.grouped.Load() != 0 {
		return
	}
	ps := getScratch()
	defer putScratch(ps)
	rs := &ps.resolve
	rs.readTable(r)
	r.lazySize.Add(int64(r.resolve(rs)))
	r.grouped.Store(1)
}

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
			pushIn(&rs.first, int32(len(rs.rules)))
			next = -1
			if len(rs.first) < n {
				next = r.recordStart(len(rs.first))
			}
		}
		if off, size, allow, ok := d.nextShortRule(); ok {
			// Most rule lines, which need no decoding of varints.
			pushIn(&rs.rules, newSrcLine(int(off), int(size), int(d.line), allow))
			continue
		}
		d.next(&e)
		switch e.kind {
		case kindUserAgent:
			rs.addAgent(e.l.value(r.text), e.l.off())
		case kindAllow, kindDisallow:
			pushIn(&rs.rules, e.l)
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
			pushIn(&rs.global, rec)
		}
		return
	}
	pushIn(&rs.names, newNaming(token, off, rec))
}
