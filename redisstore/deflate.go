package redisstore

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"
)

// Bodies are kept in Redis compressed with DEFLATE (RFC 1951) at its fastest
// level: robots.txt files are repetitive text, and over the real-world
// corpus they shrink 4.5-fold (mean 3,393 B to 751 B; median 646 B to
// 230 B; 99th percentile 65,747 B to 9,529 B), which is most of what Redis
// holds per host. A body that does not shrink is kept as is.

// minDeflate is the smallest body worth compressing.
const minDeflate = 64

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
