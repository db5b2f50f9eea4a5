package ruleset

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEscapeChangesByte checks escapeChanges on each interesting byte at
// every position of patterns of up to 20 bytes.
func TestEscapeChangesByte(t *testing.T) {
	tests := []struct {
		name string
		c    byte
		want bool
	}{
		{"ascii", 'a', false},
		{"slash", '/', false},
		{"percent", '%', false},
		{"neighbour-below", '$', false},
		{"neighbour-above", '&', false},
		{"nul", 0, false},
		{"del", 0x7f, false},
		{"high", 0x80, true},
		{"high-percent", 0x80 | '%', true},
		{"top", 0xff, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := 1; n <= 20; n++ {
				for at := range n {
					b := []byte(strings.Repeat("/", n))
					b[at] = tt.c
					s := string(b)
					if got := escapeChanges(s); got != tt.want {
						t.Errorf("escapeChanges(%q) = %t, want %t", s, got, tt.want)
					}
					if got, want := escapeChanges(s), string(appendEscaped(nil, s)) != s; got != want {
						t.Errorf("escapeChanges(%q) = %t, escaping says %t", s, got, want)
					}
				}
			}
		})
	}
}

// TestEscapeChanges checks which patterns escaping changes: those that
// are kept as written and escaped as they are matched (raw rules).
func TestEscapeChanges(t *testing.T) {
	tests := []struct {
		name, v string
		want    bool
	}{
		{name: "ascii", v: "/a/b", want: false},
		{name: "outside-ascii", v: "/\xe9", want: true},
		{name: "lower-case-escape", v: "/%e9", want: true},
		{name: "lower-case-low-escape", v: "/%2f", want: true},
		{name: "upper-case-escape", v: "/%E9", want: false},
		{name: "lower-case-second-digit", v: "/%Ea", want: true},
		{name: "percent-alone", v: "/100%", want: false},
		{name: "percent-one-digit", v: "/%a", want: false},
		{name: "percent-not-hex", v: "/%ag", want: false},
		{name: "percent-percent", v: "%%e9", want: true},
		{name: "lower-after-percent-percent", v: "%%ex", want: false},
		{name: "long/ascii", v: "/a/long/path/of/many/words.html", want: false},
		{name: "long/outside-ascii-late", v: "/a/long/path/of/many/words\xe9", want: true},
		{name: "long/outside-ascii-in-word", v: "/a/long/pa\xe9th/of/many/words", want: true},
		{name: "long/outside-ascii-after-percent", v: "/a/long/%2F/of/many/w\xe9rds", want: true},
		{name: "long/lower-escape-late", v: "/a/long/path/of/many/%2f", want: true},
		{name: "long/lower-escape-across-words", v: "/a/long%2f/path", want: true},
		{name: "long/upper-escapes", v: "/a/long%2F/path/%E9%E9/x", want: false},
		{name: "long/percent-at-end", v: "/a/long/path%", want: false},
		{name: "long/percent-then-lower", v: "/a/long/path%%2fx", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escapeChanges(tt.v); got != tt.want {
				t.Errorf("escapeChanges(%q) = %t, want %t", tt.v, got, tt.want)
			}
			if got := string(appendEscaped(nil, tt.v)) != tt.v; got != tt.want {
				t.Errorf("appendEscaped(%q) changes it: %t, escapeChanges says %t", tt.v, got, tt.want)
			}
		})
	}
}

// TestEscapeChangesEverywhere checks escapeChanges, which reads eight
// bytes at a time up to a "%", against what it means, with a "%" and a
// byte outside ASCII or a triplet at every position of patterns of up to
// 20 bytes: in a whole word, across words and in the tail.
func TestEscapeChangesEverywhere(t *testing.T) {
	tests := []struct{ name, first, second string }{
		{"lower-triplet", "", "%2f"},
		{"upper-triplet", "", "%2F"},
		{"outside-ascii", "", "\xe9"},
		{"percent-then-lower-triplet", "%", "%2f"},
		{"percent-then-outside-ascii", "%", "\xe9"},
		{"upper-then-lower-triplet", "%2F", "%a1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := 1; n <= 20; n++ {
				for i := range n + 1 {
					for j := i; j <= n; j++ {
						p := strings.Repeat("/", n)
						s := p[:i] + tt.first + p[i:j] + tt.second + p[j:]
						if got, want := escapeChanges(s), string(appendEscaped(nil, s)) != s; got != want {
							t.Errorf("escapeChanges(%q) = %t, escaping says %t", s, got, want)
						}
					}
				}
			}
		})
	}
}

// escapeAlphabet are the bytes of the random patterns and paths of the
// escaping tests: those that make and break triplets, and a few others.
const escapeAlphabet = "%%%aAfF29x/*$\xe2\xff\x80"

// randomEscapable returns a random string of n bytes of escapeAlphabet.
func randomEscapable(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = escapeAlphabet[rng.IntN(len(escapeAlphabet))]
	}
	return string(b)
}

// TestEscapedAsItGoes checks the functions that read the escaped form of
// a pattern as written without building it against the escaped form built
// by appendEscaped, on random patterns and strings: comparisons, prefixes,
// suffixes, searches, and the written length of a prefix of the escaped
// form; and, for a pattern followed by more of the kept text, that its size
// keeps a "%" at its end from taking the bytes after it.
func TestEscapedAsItGoes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		w := randomEscapable(rng, rng.IntN(8))
		e := string(appendEscaped(nil, w))
		s := randomEscapable(rng, rng.IntN(10))
		if rng.IntN(3) == 0 {
			// s holds e somewhere, escaped from w.
			s = s[:rng.IntN(len(s)+1)] + e + randomEscapable(rng, rng.IntN(4))
		}
		after := randomEscapable(rng, rng.IntN(4)) // the kept text after w
		v := w + after
		if got, want := indexEscaped(s, w), strings.Index(s, e); got != want {
			t.Fatalf("indexEscaped(%q, %q) = %d, want %d", s, w, got, want)
		}
		if got, want := equalEscaped(s, w), s == e; got != want {
			t.Fatalf("equalEscaped(%q, %q) = %t, want %t", s, w, got, want)
		}
		if got, want := hasEscapedSuffix(s, w), strings.HasSuffix(s, e); got != want {
			t.Fatalf("hasEscapedSuffix(%q, %q) = %t, want %t", s, w, got, want)
		}
		if len(s) >= 1 && len(s) <= 3 {
			if got, want := indexInEscaped(w, s), strings.Index(e, s); got != want {
				t.Fatalf("indexInEscaped(%q, %q) = %d, want %d", w, s, got, want)
			}
		}
		// Each prefix of w that ends at a "*", or all of it, as the head
		// of a pattern followed by the rest of the kept text.
		for i := 0; i <= len(w); i++ {
			if i < len(w) && w[i] != '*' {
				continue
			}
			n := escapedLen(w[:i])
			if got := writtenLen(v, len(e), n); got != i {
				t.Fatalf("writtenLen(%q, %d, %d) = %d, want %d", v, len(e), n, got, i)
			}
			got, _ := compareToEscaped(v, len(e), n, s)
			if want := strings.Compare(e[:n], s); got != want {
				t.Fatalf("compareToEscaped(%q, %d, %d, %q) = %d, want %d", v, len(e), n, s, got, want)
			}
			if got, want := hasEscapedPrefix(s, v, len(e), n), strings.HasPrefix(s, e[:n]); got != want {
				t.Fatalf("hasEscapedPrefix(%q, %q, %d, %d) = %t, want %t", s, v, len(e), n, got, want)
			}
		}
	}
}

// TestIndexEscapedLong checks indexEscaped on patterns and paths far
// longer than a word, where the hash rolls over many windows.
func TestIndexEscapedLong(t *testing.T) {
	tests := []struct {
		name, s, w string
		want       int
	}{
		{"at-end", strings.Repeat("%FF", 1000) + "%FE", strings.Repeat("\xff", 100) + "\xfe", 3 * 900},
		{"absent", strings.Repeat("%FF", 1000), strings.Repeat("\xff", 100) + "\xfe", -1},
		{"lower-in-path", strings.Repeat("%ff", 100), "\xff", -1},
		{"lower-in-pattern", "/a/%2F%2Fb", "%2f%2fb", 3},
		{"raw-in-path", "/\xff/%FF", "\xff", 3},
		{"empty", "/a", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := indexEscaped(tt.s, tt.w); got != tt.want {
				t.Errorf("indexEscaped(%.20q…, %.20q…) = %d, want %d", tt.s, tt.w, got, tt.want)
			}
		})
	}
}
