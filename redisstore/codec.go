package redisstore

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

// A value holds one fetch.State, laid out as:
//
//	magic "RBS" | version 3 | RobotsURL (uvarint length, bytes)
//	GoodStatus (uvarint) | Body (uvarint length; uvarint length kept, bytes:
//	the body, or its DEFLATE when shorter, see deflate.go)
//	GoodURL (uvarint length, bytes)
//	GoodAt, GoodUntil, FailingSince, FetchedAt, NextFetch (varint Unix ns, 0 for the zero time)
//	Outcome (byte) | StatusCode (uvarint) | CRC-32 (IEEE) of all before it (4 bytes, big-endian)
//
// Versions 1 and 2, written before, had no GoodURL (read as ""), and
// version 1 kept the Body as is (uvarint length, bytes); both are read
// still. A value that is not exactly one of them, for the URL asked for, is
// a miss.
const (
	magic   = "RBS"
	version = 3
	// maxURL bounds each URL in a value: RobotsURL and GoodURL.
	maxURL = 8 << 10
	// maxValue bounds a whole value: a body of robots.MaxSize and the rest.
	maxValue = robots.MaxSize + 2*maxURL + 128
)

// errBadValue reports a value that is foreign, truncated, oversized or
// corrupt; Load reads it as a miss.
var errBadValue = errors.New("redisstore: bad value")

// encode returns the value of st.
func encode(st *fetch.State) []byte {
	b := make([]byte, 0, len(magic)+1+len(st.RobotsURL)+len(st.Body)+len(st.GoodURL)+80)
	b = append(b, magic...)
	b = append(b, version)
	b = binary.AppendUvarint(b, uint64(len(st.RobotsURL)))
	b = append(b, st.RobotsURL...)
	b = binary.AppendUvarint(b, uint64(st.GoodStatus))
	b = appendBody(b, st.Body)
	b = binary.AppendUvarint(b, uint64(len(st.GoodURL)))
	b = append(b, st.GoodURL...)
	for _, t := range []time.Time{st.GoodAt, st.GoodUntil, st.FailingSince, st.FetchedAt, st.NextFetch} {
		b = binary.AppendVarint(b, unixNano(t))
	}
	b = append(b, byte(st.Outcome))
	b = binary.AppendUvarint(b, uint64(st.StatusCode))
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// decode returns the State in value, which must be that of robotsURL.
func decode(value []byte, robotsURL string) (fetch.State, error) {
	var st fetch.State
	if len(value) > maxValue || len(value) < len(magic)+1+4 || string(value[:len(magic)]) != magic {
		return st, errBadValue
	}
	v := value[len(magic)]
	if v < 1 || v > version {
		return st, errBadValue
	}
	sum := len(value) - 4
	if crc32.ChecksumIEEE(value[:sum]) != binary.BigEndian.Uint32(value[sum:]) {
		return st, errBadValue
	}
	d := decoder{b: value[len(magic)+1 : sum]}
	st.RobotsURL = string(d.bytes(maxURL))
	st.GoodStatus = d.status()
	if v == 1 {
		st.Body = d.bytes(robots.MaxSize)
	} else {
		st.Body = d.body(robots.MaxSize)
	}
	if v >= 3 {
		st.GoodURL = string(d.bytes(maxURL))
	}
	for _, t := range []*time.Time{&st.GoodAt, &st.GoodUntil, &st.FailingSince, &st.FetchedAt, &st.NextFetch} {
		*t = fromUnixNano(d.varint())
	}
	st.Outcome = fetch.Outcome(d.byte())
	st.StatusCode = d.status()
	if d.err || len(d.b) != 0 || st.RobotsURL != robotsURL || st.Outcome < fetch.Success || st.Outcome > fetch.Unreachable {
		return fetch.State{}, errBadValue
	}
	return st, nil
}

// A decoder reads the fields of a value, remembering the first error.
type decoder struct {
	b   []byte
	err bool
}

// appendUvarint appends n as a uvarint.
func appendUvarint(b []byte, n int) []byte {
	return binary.AppendUvarint(b, uint64(n))
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, n = true, 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, n = true, 0
	}
	d.b = d.b[n:]
	return v
}

// status reads an HTTP status code, at most 999.
func (d *decoder) status() int {
	v := d.uvarint()
	if v > 999 {
		d.err = true
	}
	return int(v)
}

// bytes reads a length-prefixed field of at most limit bytes.
func (d *decoder) bytes(limit int) []byte {
	n := d.uvarint()
	if n > uint64(limit) || n > uint64(len(d.b)) {
		d.err = true
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	if n == 0 {
		return nil
	}
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = true
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// unixNano returns t in Unix nanoseconds, 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromUnixNano is the inverse of unixNano.
func fromUnixNano(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}
