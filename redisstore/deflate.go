package redisstore

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// Bodies of 1 KiB or more are kept in Redis compressed with DEFLATE (RFC
// 1951) at its fastest level: robots.txt files are repetitive text, and
// over the real-world corpus (/work/shared/testdata/realworld, 1,694
// files) they shrink 4.5-fold (mean 3,393 B to 751 B; 99th percentile
// 65,747 B to 9,529 B), and the body is most of what Redis holds per host.
// A body that does not shrink is kept as is.

// minDeflate is the smallest body worth compressing. Inflating costs
// about as much CPU as parsing, or more (the 99th-percentile file: 196 µs
// against 114 µs; the median one, compressed: 35 µs against 18 µs with a
// loaded clock; BenchmarkDecode), and saves little on a small file (872 B
// to 552 B in Redis for the median one): below 1 KiB (over half the files)
// a body is kept as is, which costs 12 % of the memory saved (a mean of
// 1,154 B a host rather than 1,028 B; 3,894 B uncompressed).
const minDeflate = 1024

// writers and readers hold DEFLATE writers and readers for reuse: each
// holds tens of KiB of tables and window.
var (
	writers = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed)
		return w
	}}
	readers sync.Pool
)

// appendBody appends the Body field of a value: the length of body, the
// length of what is kept, and what is kept (body, or its DEFLATE if
// shorter).
func appendBody(b, body []byte) []byte {
	b = appendUvarint(b, len(body))
	if len(body) >= minDeflate {
		var out appender
		w := writers.Get().(*flate.Writer)
		w.Reset(&out)
		w.Write(body)
		w.Close()
		writers.Put(w)
		if len(out) < len(body) {
			b = appendUvarint(b, len(out))
			return append(b, out...)
		}
	}
	b = appendUvarint(b, len(body))
	return append(b, body...)
}

// body reads the Body field of a value, of at most limit bytes once
// inflated.
func (d *decoder) body(limit int) []byte {
	n := d.uvarint()
	kept := d.bytes(limit)
	switch {
	case d.err || n > uint64(limit) || uint64(len(kept)) > n:
		d.err = true
		return nil
	case uint64(len(kept)) == n:
		return kept
	}
	body, ok := inflate(kept, int(n))
	if !ok {
		d.err = true
	}
	return body
}

// inflate returns the n bytes that z, a DEFLATE stream, holds: false if it
// holds another number of bytes or is not one.
func inflate(z []byte, n int) ([]byte, bool) {
	src := bytes.NewReader(z)
	r, _ := readers.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if r.(flate.Resetter).Reset(src, nil) != nil {
		return nil, false
	}
	defer readers.Put(r)
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, false
	}
	var more [1]byte
	if _, err := io.ReadFull(r, more[:]); err != io.EOF {
		return nil, false
	}
	return body, true
}

// An appender is an io.Writer that appends to itself.
type appender []byte

func (a *appender) Write(p []byte) (int, error) {
	*a = append(*a, p...)
	return len(p), nil
}
