package lines

// Reading the line table (table.go) of a parsed file: its records, a
// rule's line, and the rule lines of records in file order.

import "sort"

// A Table is a parsed file's line table: text holds the kept values, from
// linesAt the table, from indexAt its index.
type Table struct {
	text             string
	linesAt, indexAt uint32
}

// NewTable returns the table of text, whose table starts at linesAt and
// index at indexAt.
func NewTable(text string, linesAt, indexAt uint32) Table {
	return Table{text: text, linesAt: linesAt, indexAt: indexAt}
}

func (t Table) lines() string { return t.text[t.linesAt:t.indexAt] }

func (t Table) indexWord(i int) uint32 {
	o := int(t.indexAt) + 4*i
	s := t.text[o : o+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func (t Table) RecordCount() int {
	if int(t.indexAt) == len(t.text) {
		return 0
	}
	return int(t.indexWord(0))
}

// recordStart returns the entry of record i's first user-agent line.
func (t Table) recordStart(i int) int { return int(t.indexWord(1 + i)) }

func (t Table) marks() int {
	words := (len(t.text) - int(t.indexAt)) / 4
	if words == 0 {
		return 0
	}
	return 1 + (words-1-t.RecordCount())/3
}

func (t Table) mark(k int) Mark {
	if k == 0 {
		return Mark{}
	}
	i := 1 + t.RecordCount() + 3*(k-1)
	return Mark{t.indexWord(i), t.indexWord(i + 1), t.indexWord(i + 2)}
}

// A reader decodes a table from one of its marks on.
type reader struct {
	lines      string
	pos, i     int    // the offset of the next Entry and its index
	text, line uint32 // the running offset and the last line
}

// nextShortRule reads the next entry if it is a rule's short one (most
// are; d must hold one): its value's offset and length, and whether it
// allows; else it reports !ok.
func (d *reader) nextShortRule() (off, size uint32, allow, ok bool) {
	h := d.lines[d.pos]
	kind, size := Kind(h&(1<<entryKindBits-1)), uint32(h>>entryKindBits)
	if size == entryLong || kind != KindAllow && kind != KindDisallow {
		return 0, 0, false, false
	}
	d.pos, d.i, d.line = d.pos+1, d.i+1, d.line+1
	off = d.text
	d.text += size
	return off, size, kind == KindAllow, true
}

// reader returns a reader of the lines of r from entry k*markEvery on.
func (t Table) readFrom(k int) reader {
	lines := t.lines()
	if k >= t.marks() {
		return reader{lines: lines, pos: len(lines)}
	}
	m := t.mark(k)
	return reader{lines: lines, pos: int(m.pos), i: k * markEvery, text: m.text, line: m.line}
}

// readerAt returns a reader of the lines of r whose next entry is entry i.
func (t Table) readerAt(i int) reader {
	d := t.readFrom(i / markEvery)
	for d.i < i && d.next(nil) {
	}
	return d
}

// uvarint decodes the varint at d.pos, which Writer wrote.
func (d *reader) uvarint() uint32 {
	var v uint32
	for shift := 0; ; shift += 7 {
		b := d.lines[d.pos]
		d.pos++
		v |= uint32(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

// next decodes the next entry into e (unless nil), if there is one.
func (d *reader) next(e *Entry) bool {
	if d.pos >= len(d.lines) {
		return false
	}
	h := d.lines[d.pos]
	d.pos++
	kind, size := Kind(h&(1<<entryKindBits-1)), uint32(h>>entryKindBits)
	gap, flags, back := uint32(1), uint32(0), uint32(0)
	if size == entryLong {
		v := d.uvarint()
		gap, flags = v>>entryFlagBits, v&(1<<entryFlagBits-1)
		size = d.uvarint()
		if flags&entryRef != 0 {
			back = d.uvarint()
		}
	}
	var keyLen uint32
	if kind == KindOther {
		keyLen = d.uvarint()
	}
	d.line += gap
	d.i++
	start := d.text - back
	if flags&entryRef == 0 {
		d.text += keyLen + size
	}
	if e != nil {
		l := NewLine(int(start+keyLen), int(size), int(d.line), kind == KindAllow)
		*e = Entry{Kind: kind, KeyLen: keyLen, L: l}
	}
	return true
}

// RuleAt returns the rule line whose value is at offset off of the kept
// text: the last that starts there or before (a compiled rule's pattern is
// never empty).
func (t Table) RuleAt(off uint32) Line {
	past := sort.Search(t.marks(), func(k int) bool { return t.mark(k).text > off })
	d := t.readFrom(max(past-1, 0))
	// Short entries are skipped here, others by next (BenchmarkDecide; see
	// bench/RESULTS.md, "What each mechanism buys"); at is where the last rule so far starts.
	lines, pos, text, line := d.lines, d.pos, d.text, d.line
	at := reader{lines: lines, pos: len(lines)}
	for text <= off && pos < len(lines) {
		h := lines[pos]
		kind, size := Kind(h&(1<<entryKindBits-1)), uint32(h>>entryKindBits)
		if kind == KindAllow || kind == KindDisallow {
			at.pos, at.text, at.line = pos, text, line
		}
		if size == entryLong || kind == KindOther {
			d.pos, d.text, d.line = pos, text, line
			d.next(nil)
			pos, text, line = d.pos, d.text, d.line
			continue
		}
		pos, text, line = pos+1, text+size, line+1
	}
	var e Entry
	at.next(&e)
	return e.L
}

func (t Table) RecordLines(i int, agents, rules []Line) ([]Line, []Line) {
	t.EachRecordLine(i, func(e *Entry) {
		switch e.Kind {
		case KindUserAgent:
			agents = append(agents, e.L)
		case KindAllow, KindDisallow:
			rules = append(rules, e.L)
		}
	})
	return agents, rules
}

// EachRecordLine calls f with each entry of record i, in file order.
func (t Table) EachRecordLine(i int, f func(e *Entry)) {
	end := -1
	if i+1 < t.RecordCount() {
		end = t.recordStart(i + 1)
	}
	d := t.readerAt(t.recordStart(i))
	var e Entry
	for d.i != end && d.next(&e) {
		f(&e)
	}
}

// EachLine calls f with each entry of the table, in file order, and the
// index of the record it stands in (-1 before the first).
func (t Table) EachLine(f func(e *Entry, rec int)) {
	d := t.readFrom(0)
	var e Entry
	rec := -1
	n := t.RecordCount()
	for d.next(&e) {
		for rec+1 < n && t.recordStart(rec+1) < d.i {
			rec++
		}
		f(&e, rec)
	}
}

// A RuleReader reads the rule lines of records of a file, in file order,
// each from where the one before ended when it follows closely, not from
// a mark: many records of a rule or two cost no more than their lines.
type RuleReader struct {
	t       Table
	d       reader
	end     int // the entry that ends the current record, or -1
	started bool
}

// NewRuleReader returns a reader of the rule lines of t.
func NewRuleReader(t Table) RuleReader { return RuleReader{t: t} }

// Start moves to record rec, which follows those read before.
func (rr *RuleReader) Start(rec int32) {
	t := rr.t
	at := t.recordStart(int(rec))
	if !rr.started || rr.d.i > at || at-rr.d.i > at%markEvery {
		rr.d = t.readerAt(at) // from the mark before at
	}
	for rr.d.i < at && rr.d.next(nil) {
	}
	rr.started, rr.end = true, -1
	if int(rec)+1 < t.RecordCount() {
		rr.end = t.recordStart(int(rec) + 1)
	}
}

// More reports whether the record has entries left.
func (rr *RuleReader) More() bool { return rr.d.i != rr.end && rr.d.pos < len(rr.d.lines) }

// NextShort reads the next entry if it is a rule's short one, as
// reader.nextShortRule does; More must be true. A short entry's line
// (NewLine) can be passed over at a glance by its value before it is made.
func (rr *RuleReader) NextShort() (off, size uint32, num int, allow, ok bool) {
	off, size, allow, ok = rr.d.nextShortRule()
	return off, size, int(rr.d.line), allow, ok
}

// NextEntry reads the next entry, which is not a short rule's, and
// returns its line if it is a rule's.
func (rr *RuleReader) NextEntry() (Line, bool) {
	var e Entry
	rr.d.next(&e)
	return e.L, e.Kind == KindAllow || e.Kind == KindDisallow
}

// Next returns the next rule line of the record, or false after its last.
func (rr *RuleReader) Next() (Line, bool) {
	var e Entry
	for rr.d.i != rr.end && rr.d.next(&e) {
		if e.Kind == KindAllow || e.Kind == KindDisallow {
			return e.L, true
		}
	}
	return 0, false
}

// Values returns the kept values of t, before its table.
func (t Table) Values() string { return t.text[:t.linesAt] }
