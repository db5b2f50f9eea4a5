package lines

// The line table: the user-agent, rule, sitemap and extra lines a parsed
// Robots keeps, about 1.5 bytes a line, rather than a Line a line
// (TestKeptPerByte); Decide pays for reading it back (RuleAt). Figures:
// bench/RESULTS.md, "What each mechanism buys".
//
// An entry a kept line, in file order; its value starts where the previous
// one's kept bytes end (the running offset), unless flagged entryRef (an
// agent value kept once, agentText). The header byte holds the kind in its
// low 3 bits and, for a line following the previous entry's with no flag,
// the value's length (0-30); else entryLong and varints: the line gap
// shifted over the flag, the length, and if flagged the distance back from
// the running offset. An extra ends with a varint of its key's length (the
// key is kept just before its value).
//
// A Mark every markEvery entries bounds a decode to a binary search
// and markEvery entries. From Robots.indexAt, little-endian uint32s: the
// number of records, each record's first user-agent entry, and the marks
// after the first, three numbers each.

import "encoding/binary"

// A Kind says what a line is, by its key; KindNone is no directive
// (blank, a comment alone, invalid), KindOther any other key (an extra).
type Kind uint8

const (
	KindNone Kind = iota
	KindUserAgent
	KindAllow
	KindDisallow
	KindSitemap
	KindOther
)

// A Line is a kept line as the line table decodes it, low bits first:
// its value's offset in the kept text (21 bits), length (17, at most
// MaxLineLen), 1-based line number (LineBits), and whether it allows.
type Line uint64

// A file of MaxSize bytes has fewer than MaxLine lines.
const (
	LineBits     = 20
	MaxLine      = 1<<LineBits - 1
	offBits      = 21
	LenBits      = 17
	LenShift     = offBits
	srcLineShift = offBits + LenBits
	srcAllow     = 1 << (srcLineShift + LineBits)
)

func (l Line) Off() uint32  { return uint32(l & (1<<offBits - 1)) }
func (l Line) Size() uint32 { return uint32(l >> LenShift & (1<<LenBits - 1)) }
func (l Line) Num() int     { return int(l >> srcLineShift & MaxLine) }
func (l Line) Allow() bool  { return l&srcAllow != 0 }

func (l Line) Value(text string) string {
	off := l.Off()
	return text[off : off+l.Size()]
}

const (
	entryKindBits = 3
	entryLong     = 1<<(8-entryKindBits) - 1 // the short length that says "long"
	entryRef      = 1                        // the flag of a value not at the running offset
	entryFlagBits = 1
	markEvery     = 32
)

// A Mark is where the decoding stands before entry k*markEvery: the
// offset in the table, the running offset and the line before.
type Mark struct {
	pos, text, line uint32
}

// An entry is a decoded line of the table (for an extra, l is the value;
// the key is the keyLen bytes before it).
type Entry struct {
	Kind   Kind
	KeyLen uint32
	L      Line
}

// key returns the key of an extra.
func (e Entry) Key(text string) string {
	off := e.L.Off()
	return text[off-e.KeyLen : off]
}

// A Writer appends entries to a table.
type Writer struct {
	Buf   []byte
	Marks []Mark
	// N is the entries so far; text the running offset, line the last line.
	N          uint32
	text, line uint32
}

// Add appends the line l of kind kind, an extra of key length keyLen.
func (w *Writer) Add(kind Kind, l Line, keyLen int) {
	if w.N%markEvery == 0 {
		w.Marks = append(w.Marks, Mark{uint32(len(w.Buf)), w.text, w.line})
	}
	w.N++
	start := l.Off() - uint32(keyLen)
	gap, size, ref := uint32(l.Num())-w.line, l.Size(), start != w.text
	w.line = uint32(l.Num())
	if gap == 1 && !ref && size < entryLong {
		w.Buf = append(w.Buf, byte(kind)|byte(size)<<entryKindBits)
	} else {
		flags := uint64(0)
		if ref {
			flags = entryRef
		}
		w.Buf = append(w.Buf, byte(kind)|entryLong<<entryKindBits)
		w.Buf = binary.AppendUvarint(w.Buf, uint64(gap)<<entryFlagBits|flags)
		w.Buf = binary.AppendUvarint(w.Buf, uint64(size))
		if ref {
			w.Buf = binary.AppendUvarint(w.Buf, uint64(w.text-start))
		}
	}
	if kind == KindOther {
		w.Buf = binary.AppendUvarint(w.Buf, uint64(keyLen))
	}
	if !ref {
		w.text = l.Off() + l.Size()
	}
}

// AppendIndex appends to b the index of the records starts and the marks.
func AppendIndex(b []byte, starts []uint32, marks []Mark) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(starts)))
	for _, s := range starts {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	for _, m := range marks[1:] {
		b = binary.LittleEndian.AppendUint32(b, m.pos)
		b = binary.LittleEndian.AppendUint32(b, m.text)
		b = binary.LittleEndian.AppendUint32(b, m.line)
	}
	return b
}

// NewLine returns line number line, whose value is n bytes at off.
func NewLine(off, n, line int, allow bool) Line {
	l := Line(off) | Line(n)<<LenShift | Line(line)<<srcLineShift
	if allow {
		l |= srcAllow
	}
	return l
}
