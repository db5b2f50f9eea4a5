package redisstore

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

const testURL = "https://example.com/robots.txt"

func testState(body []byte) fetch.State {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	return fetch.State{
		RobotsURL: testURL, GoodStatus: 200, Body: body, GoodAt: t0, GoodUntil: t0.Add(24 * time.Hour),
		Outcome: fetch.Success, StatusCode: 200, FetchedAt: t0, NextFetch: t0.Add(24 * time.Hour),
	}
}

// TestEncodeDecodeBodies checks that every body comes back as it was, kept
// compressed when that is shorter: the real files, bodies too short to
// compress, random bytes that do not compress, and the largest file.
func TestEncodeDecodeBodies(t *testing.T) {
	names, _ := filepath.Glob("../testdata/realworld/*")
	bodies := map[string][]byte{
		"empty":        nil,
		"short":        []byte("User-agent: *\nDisallow:\n"),
		"random":       randomBytes(4096),
		"largest":      []byte(strings.Repeat("Disallow: /a-long-enough-path/*.php$\n", robots.MaxSize/37)),
		"random-64KiB": randomBytes(64 << 10),
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		bodies["realworld/"+filepath.Base(n)] = b
	}
	var raw, kept int
	for name, body := range bodies {
		st := testState(body)
		value := encode(&st)
		got, err := decode(value, testURL)
		if err != nil {
			t.Errorf("%s: decode(encode) = %v", name, err)
			continue
		}
		if !bytes.Equal(got.Body, st.Body) {
			t.Errorf("%s: body of %d bytes back as %d other bytes", name, len(st.Body), len(got.Body))
		}
		st.Body, got.Body = nil, nil // cmp is slow on long slices
		if diff := cmp.Diff(st, got); diff != "" {
			t.Errorf("%s: state mismatch (-want +got):\n%s", name, diff)
		}
		if len(value) > len(body)+len(testURL)+80 {
			t.Errorf("%s: %d-byte value for a %d-byte body", name, len(value), len(body))
		}
		if strings.HasPrefix(name, "realworld/") {
			raw, kept = raw+len(body), kept+len(value)
		}
	}
	t.Logf("realworld: %d bytes of files kept in %d bytes of values", raw, kept)
	if kept*2 > raw {
		t.Errorf("realworld: %d bytes of files kept in %d bytes; want at most half", raw, kept)
	}
}

// TestDecodeVersion1 checks that a value of version 1, written before the
// bodies were compressed, is read still.
func TestDecodeVersion1(t *testing.T) {
	st := testState([]byte(strings.Repeat("User-agent: *\nDisallow: /private\n", 10)))
	got, err := decode(encodeV1(&st), testURL)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("state mismatch (-want +got):\n%s", diff)
	}
}

// TestEncodeDecodeGoodURL checks that the URL a redirect led to comes back.
func TestEncodeDecodeGoodURL(t *testing.T) {
	st := testState([]byte("User-agent: *\nDisallow: /private\n"))
	st.GoodURL = "https://www.example.com/files/robots.txt"
	got, err := decode(encode(&st), testURL)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("state mismatch (-want +got):\n%s", diff)
	}
	st.GoodURL = strings.Repeat("x", maxURL+1)
	if _, err := decode(encode(&st), testURL); err == nil {
		t.Errorf("decode of a GoodURL of %d bytes = nil error, want a bad value", len(st.GoodURL))
	}
}

// TestDecodeVersion2 checks that a value of version 2, written before
// GoodURL was kept, is read still, without it.
func TestDecodeVersion2(t *testing.T) {
	st := testState([]byte(strings.Repeat("User-agent: *\nDisallow: /private\n", 10)))
	got, err := decode(encodeV2(&st), testURL)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("state mismatch (-want +got):\n%s", diff)
	}
}

// TestDecodeBadDeflate checks that a compressed body that is not what its
// lengths say is a bad value, even under a right checksum: a stream that
// inflates to more or fewer bytes than said (a bomb), a cut or corrupt
// stream, and lengths beyond the bounds.
func TestDecodeBadDeflate(t *testing.T) {
	body := []byte(strings.Repeat("Disallow: /x\n", 100))
	z := deflated(body)
	bomb := deflated(make([]byte, 10<<20))
	tests := []struct {
		name    string
		n, kept int // the lengths written
		stream  []byte
	}{
		{"more-than-said", len(body) - 1, len(z), z},
		{"fewer-than-said", len(body) + 1, len(z), z},
		{"bomb", 1000, len(bomb), bomb},
		{"cut", len(body), len(z) - 3, z[:len(z)-3]},
		{"corrupt", len(body), len(z), append([]byte{0xff}, z[1:]...)},
		{"kept-longer-than-body", 2, len(z), z},
		{"beyond-max-size", robots.MaxSize + 1, len(z), z},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := []byte(magic)
			b = append(b, version)
			b = appendUvarint(b, len(testURL))
			b = append(b, testURL...)
			b = appendUvarint(b, 200)
			b = appendUvarint(b, tt.n)
			b = appendUvarint(b, tt.kept)
			b = append(b, tt.stream...)
			b = appendUvarint(b, 0) // GoodURL
			for range 5 {
				b = binary.AppendVarint(b, 1)
			}
			b = append(b, byte(fetch.Success))
			b = appendUvarint(b, 200)
			b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
			if st, err := decode(b, testURL); err == nil {
				t.Errorf("decode = %d-byte body, nil; want a bad value", len(st.Body))
			}
		})
	}
}

// encodeV1 returns the value of st as version 1 wrote it.
func encodeV1(st *fetch.State) []byte {
	b := []byte(magic)
	b = append(b, 1)
	b = appendUvarint(b, len(st.RobotsURL))
	b = append(b, st.RobotsURL...)
	b = appendUvarint(b, st.GoodStatus)
	b = appendUvarint(b, len(st.Body))
	b = append(b, st.Body...)
	for _, t := range []time.Time{st.GoodAt, st.GoodUntil, st.FailingSince, st.FetchedAt, st.NextFetch} {
		b = binary.AppendVarint(b, unixNano(t))
	}
	b = append(b, byte(st.Outcome))
	b = appendUvarint(b, st.StatusCode)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// encodeV2 returns the value of st as version 2 wrote it.
func encodeV2(st *fetch.State) []byte {
	b := []byte(magic)
	b = append(b, 2)
	b = appendUvarint(b, len(st.RobotsURL))
	b = append(b, st.RobotsURL...)
	b = appendUvarint(b, st.GoodStatus)
	b = appendBody(b, st.Body)
	for _, t := range []time.Time{st.GoodAt, st.GoodUntil, st.FailingSince, st.FetchedAt, st.NextFetch} {
		b = binary.AppendVarint(b, unixNano(t))
	}
	b = append(b, byte(st.Outcome))
	b = appendUvarint(b, st.StatusCode)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

func deflated(b []byte) []byte {
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestSpeed)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
