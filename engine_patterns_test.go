package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// The engine's patterns asked through Parse: long and escaped patterns,
// files of MaxSize bytes of them, and raw rules (patterns that escaping
// changes).

// TestLongEscapedPatterns checks rules whose escaped pattern is longer than
// 32 KiB: a line holds at most maxLineLen bytes, but escaping triples its
// non-ASCII bytes, so the literal head of a compiled rule can reach about
// 50,000 bytes, past what 15 bits of head length hold. A rule must match
// only paths that hold all of its head.
func TestLongEscapedPatterns(t *testing.T) {
	const n = 11_000 // non-ASCII bytes: 33,001 escaped, under maxLineLen raw
	raw := "/" + strings.Repeat("\xff", n)
	esc := "/" + strings.Repeat("%FF", n)
	tests := []struct {
		name, rule, path string
		want             bool
	}{
		{"prefix/first-233-bytes", "disallow: " + raw, esc[:233] + "z", true},
		{"prefix/half", "disallow: " + raw, esc[:len(esc)/2], true},
		{"prefix/all", "disallow: " + raw, esc + "z", false},
		{"exact/first-233-bytes", "disallow: " + raw + "$", esc[:233], true},
		{"exact/all", "disallow: " + raw + "$", esc, false},
		{"wildcard/first-233-bytes", "disallow: " + raw + "*z", esc[:233] + "z", true},
		{"wildcard/all", "disallow: " + raw + "*z", esc + "/z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "user-agent: *\n" + tt.rule + "\n"
			r := Parse([]byte(body))
			if got := r.Allowed("a", tt.path); got != tt.want {
				t.Errorf("Allowed(%q) = %t, want %t; decision: %v", short(tt.path), got, tt.want, r.Decide("a", tt.path).Reason)
			}
			if got := slowAllowed([]byte(body), []string{"a"}, tt.path); got != tt.want {
				t.Errorf("slowAllowed(%q) = %t, want %t", short(tt.path), got, tt.want)
			}
		})
	}
}

// TestLargestKeptText checks the rules of a file whose patterns escaping
// makes largest: MaxSize bytes of rules of non-ASCII bytes at the line
// limit, with a lower-case "%ff" in each, which are kept as written (not
// escaped, four bytes for one written before), so that the offsets of the
// last rules fit a rule beside its raw bit (ruleRawBit), and matched
// escaped.
func TestLargestKeptText(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	var tags []string
	for i := 0; b.Len() < MaxSize; i++ {
		tag := "/" + letters(i) + "/%ff"
		tags = append(tags, tag)
		b.WriteString("allow:" + tag + strings.Repeat("\xff", lines.MaxLineLen-len("allow:")-len(tag)) + "\n")
	}
	b.WriteString("user-agent: a\n")
	r := Parse([]byte(b.String()))
	if n := int(r.linesAt()); n > MaxSize || n < MaxSize-64<<10 || len(r.text()) >= ruleset.MaxText {
		t.Fatalf("the kept text holds %d bytes of values, %d in all, want just under %d, and under %d", n, len(r.text()), MaxSize, ruleset.MaxText)
	}
	last := tags[len(tags)-2] // the last whole line
	esc := strings.Replace(last, "%ff", "%FF", 1) + strings.Repeat("%FF", lines.MaxLineLen-len("allow:")-len(last))
	for _, tt := range []struct {
		path string
		want bool
	}{
		{esc, true},
		{esc[:len(esc)-1], false},
	} {
		d := r.Decide("b", tt.path)
		if got := d.Reason == ReasonRule && d.Rule.Line == len(tags); got != tt.want {
			t.Errorf("Decide(b, %q) = %v, want the rule of line %d: %t", short(tt.path), d, len(tags), tt.want)
		}
	}
}

// TestLargeOddFiles checks files of MaxSize bytes: one of patterns of
// bytes outside ASCII written with a lower-case escape, which escaping
// makes four bytes a byte, and which are kept as written, as the offsets
// of srcLine and rule require; and one of CR line breaks whose rules come
// after half a million empty lines.
func TestLargeOddFiles(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: a\n")
	line := "allow:/%aa" + strings.Repeat("\xff", lines.MaxLineLen-len("allow:/%aa")) + "\n"
	last := "disallow:/%aa\xff\xff"
	for b.Len()+len(line)+len(last) <= MaxSize {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("#", MaxSize-b.Len()-len(last)))
	b.WriteString("\n" + last)
	near := b.String()[:MaxSize]
	if r := Parse([]byte(near)); r.linesAt() > MaxSize || r.linesAt() < MaxSize-1<<17 {
		t.Fatalf("the kept values are %d bytes, not near MaxSize", r.linesAt())
	}
	many := strings.Repeat("\r", MaxSize-40) + "user-agent: a\rdisallow: /\rallow: /a\r"
	tests := []struct {
		name  string
		body  string
		paths []string
	}{
		{name: "patterns-escaped-4x", body: near, paths: []string{"/", "/%AA", "/%AA%FF", "/%AA%FF%FF", "/%AA%FF%FF%FF"}},
		{name: "half-a-million-lines", body: many, paths: []string{"/", "/a", "/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOddFile(t, tt.body, []string{"a", "z"}[:sample(2, 1)], tt.paths)
		})
	}
}

// Tests of raw rules: patterns that escaping changes, kept as written and
// escaped as they are matched (escape.go).

// TestRawBoundaries checks raw rules where escaping as it goes could go
// wrong: triplets cut by the end of a pattern or a segment, segments after
// "*" that start with hex digits, lower-case escapes in patterns and
// paths, raw bytes in paths, "$" after a byte outside ASCII, index.htm
// under a directory of such bytes, and precedence by escaped length; each
// in a small set, and in large sets laid out by head and by anchor.
func TestRawBoundaries(t *testing.T) {
	tests := []struct {
		name  string
		rules string // of the group for "*"
		path  string
		want  bool
	}{
		{"prefix-escaped", "disallow: /caf\xc3\xa9", "/caf%C3%A9/x", false},
		{"prefix-lower-path", "disallow: /caf\xc3\xa9", "/caf%c3%a9", true},
		{"prefix-raw-path", "disallow: /caf\xc3\xa9", "/caf\xc3\xa9", true},
		{"prefix-partial-triplet-path", "disallow: /caf\xc3\xa9", "/caf%C3%A", true},
		{"pattern-partial-triplet", "disallow: /a%E", "/a%E2", false},
		{"raw-pattern-partial-triplet", "disallow: /\xff/a%E", "/%FF/a%E2", false},
		{"raw-pattern-percent-at-end", "disallow: /\xff/%e", "/%FF/%ea", false},
		{"raw-pattern-percent-at-end-upper", "disallow: /\xff/%e", "/%FF/%E", true},
		// The kept text after "/\xff%a" is the next value, "bcd": the "%a"
		// ending the pattern is no triplet with it.
		{"percent-before-next-value", "disallow: /\xff%a\ndisallow: bcd", "/%FF%ab", false},
		{"percent-before-next-value-upper", "disallow: /\xff%a\ndisallow: bcd", "/%FF%AB", true},
		{"lower-escape-pattern", "disallow: /%e2%82", "/%E2%82%AC", false},
		{"lower-escape-pattern-lower-path", "disallow: /%e2%82", "/%e2%82%ac", true},
		{"lower-low-escape", "disallow: /a%2fb", "/a%2Fb", false},
		{"lower-low-escape-lower-path", "disallow: /a%2fb", "/a%2fb", true},
		{"upper-escape-written", "disallow: /%E2%82", "/%E2%82", false},
		{"segment-hex-after-star", "disallow: /*A\xff", "/%EA%FF", false},
		{"segment-after-star-in-triplet", "disallow: /*E\xff$", "/x%E%FF", false},
		{"segment-raw", "disallow: /*\xe2", "/x/y%E2z", false},
		{"segment-raw-lower-path", "disallow: /*\xe2", "/x/y%e2z", true},
		{"segment-raw-raw-path", "disallow: /*\xe2", "/x/y\xe2z", true},
		{"segments-two", "disallow: /*\xe2*%ff/", "/a%E2b%FF/", false},
		{"segments-two-order", "disallow: /*\xe2*%ff/", "/a%FF/b%E2", true},
		{"segment-long", "disallow: /*" + strings.Repeat("\xe9", 40) + "x", "/a/" + strings.Repeat("%E9", 40) + "x", false},
		{"segment-long-short-path", "disallow: /*" + strings.Repeat("\xe9", 40) + "x", "/a/" + strings.Repeat("%E9", 39) + "x", true},
		{"dollar-after-raw", "disallow: /\xff$", "/%FF", false},
		{"dollar-after-raw-longer", "disallow: /\xff$", "/%FFx", true},
		{"dollar-after-raw-wildcard", "disallow: /*\xff$", "/a/%FF", false},
		{"dollar-after-raw-wildcard-longer", "disallow: /*\xff$", "/a/%FF/", true},
		{"star-dollar-after-raw", "disallow: /\xff*$", "/%FF/x", false},
		{"index-htm-raw-dir", "disallow: /\nallow: /\xe9/index.html", "/%E9/", true},
		{"index-htm-raw-dir-deeper", "disallow: /\nallow: /\xe9/index.html", "/%E9/x", false},
		{"index-htm-raw-dir-lower-path", "disallow: /\nallow: /\xe9/index.html", "/%e9/", false},
		{"index-htm-lower-dir", "disallow: /\nallow: /%e9/index.htm", "/%E9/", true},
		{"index-htm-raw-file", "disallow: /\nallow: /d/index.htm\xe9", "/d/", true},
		{"index-htm-raw-wild-dir", "disallow: /\nallow: /*\xe9/index.htm", "/a/%E9/", true},
		{"index-htm-raw-wild-dir-deeper", "disallow: /\nallow: /*\xe9/index.htm", "/a/%E9/b", false},
		{"priority-escaped-length", "disallow: /%C3\nallow: /\xc3", "/%C3%A9", true},
		{"priority-escaped-length-longer", "disallow: /%C3%\nallow: /\xc3", "/%C3%A9", false},
		{"priority-raw-beats-longer-written", "allow: /ab\ndisallow: /\xff", "/%FFab", false},
	}
	for _, tt := range tests {
		for _, size := range rawSetSizes {
			t.Run(tt.name+"/"+size.Name, func(t *testing.T) {
				body := "user-agent: *\n" + tt.rules + "\n" + rawPadding(size.PadPlain, size.PadWild)
				for how, r := range scannedAndLaidOut(body) {
					if got := r.Allowed("a", tt.path); got != tt.want {
						t.Errorf("%s: Allowed(%q) = %t, want %t", how, tt.path, got, tt.want)
					}
					if d := r.Decide("a", tt.path); d.Allowed != tt.want {
						t.Errorf("%s: Decide(%q) = %v, want allowed %t", how, tt.path, d, tt.want)
					}
				}
				if got := slowAllowed([]byte(body), []string{"a"}, tt.path); got != tt.want {
					t.Errorf("slow model: Allowed(%q) = %t, want %t", tt.path, got, tt.want)
				}
			})
		}
	}
}

// TestRawQuoted checks that Decide quotes a raw rule as written, and that
// a pattern written in two ways that escape alike decides on the earlier
// line, in small and large sets.
func TestRawQuoted(t *testing.T) {
	for _, size := range rawSetSizes {
		t.Run(size.Name, func(t *testing.T) {
			body := "user-agent: *\ndisallow: /%ff/a\ndisallow: /\xff/a\ndisallow: /%FF/a\n" + rawPadding(size.PadPlain, size.PadWild)
			for how, r := range scannedAndLaidOut(body) {
				d := r.Decide("a", "/%FF/a")
				want := Rule{Allow: false, Pattern: "/%ff/a", Line: 2}
				if d.Allowed || d.Rule != want {
					t.Errorf("%s: Decide(/%%FF/a) = %v, want disallowed by %v", how, d, want)
				}
				if got := r.Records()[0].Rules[1].Pattern; got != "/\xff/a" {
					t.Errorf("%s: Records pattern = %q, want %q", how, got, "/\xff/a")
				}
			}
		})
	}
}

// rawPieces are the pieces of the random patterns and paths of
// TestRawMatchesSlowModel: bytes outside ASCII, escapes of both cases,
// whole and cut, hex digits, wildcards, and the index.htm quirk.
var rawPieces = []string{"\xe2", "\xff", "\xc3\xa9", "%e2", "%E2", "%ff", "%FF", "%c3%a9", "%C3%A9", "%e", "%E", "%", "A",
	"e", "2", "f", "a", "/", "/", "*", "index.htm"}

// randomRaw returns up to n random pieces of rawPieces, without "*" if
// path.
func randomRaw(rng *rand.Rand, n int, path bool) string {
	var b strings.Builder
	for range 1 + rng.IntN(n) {
		p := rawPieces[rng.IntN(len(rawPieces))]
		if path && p == "*" {
			p = "%2A"
		}
		b.WriteString(p)
	}
	return b.String()
}

// TestRawMatchesSlowModel checks Allowed against the slow model on random
// files of patterns with bytes outside ASCII and escapes of both cases, in
// small and large sets, some with many wildcard rules, on random paths and
// on paths made from the patterns, escaped or not.
func TestRawMatchesSlowModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range 150 {
		n := []int{6, 40, 120}[i%3]
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		var patterns []string
		for range n {
			p := "/" + randomRaw(rng, 5, false)
			if rng.IntN(4) == 0 {
				p += "$"
			}
			patterns = append(patterns, p)
			b.WriteString([]string{"allow: ", "disallow: "}[rng.IntN(2)] + p + "\n")
		}
		body := []byte(b.String())
		var paths []string
		for range 20 {
			paths = append(paths, "/"+randomRaw(rng, 8, true))
		}
		for range 20 {
			p := patterns[rng.IntN(len(patterns))]
			p = strings.NewReplacer("*", randomRaw(rng, 2, true), "$", "").Replace(p)
			if rng.IntN(2) == 0 {
				p = slowEscape(p)
			}
			paths = append(paths, p+[]string{"", "/", "x", "%E2"}[rng.IntN(4)])
		}
		for how, r := range scannedAndLaidOut(string(body)) {
			for _, p := range paths {
				if got, want := r.Allowed("a", p), slowAllowed(body, []string{"a"}, p); got != want {
					t.Fatalf("file %d, %s: Allowed(%q) = %t, slow model says %t\nfile: %q", i, how, p, got, want, body)
				}
			}
		}
	}
}

// TestRawNoAllocs checks that questions to sets of raw rules, small and
// large, allocate nothing once compiled and laid out.
func TestRawNoAllocs(t *testing.T) {
	for _, size := range rawSetSizes {
		t.Run(size.Name, func(t *testing.T) {
			body := "user-agent: *\ndisallow: /*\xe2*%ff/\nallow: /\xe9/index.html\ndisallow: /caf\xc3\xa9\n" +
				"disallow: /*" + strings.Repeat("\xe9", 40) + "x\n" + rawPadding(size.PadPlain, size.PadWild)
			r := Parse([]byte(body))
			for _, p := range []string{"/a%E2b%FF/", "/%E9/", "/caf%C3%A9", "/a/" + strings.Repeat("%E9", 40) + "x", "/x"} {
				for range ruleset.LayoutQuestions + 1 {
					r.Allowed("a", p) // compiles and lays the set out
				}
				if n := testing.AllocsPerRun(20, func() { r.Allowed("a", p) }); n != 0 {
					t.Errorf("Allowed(%q) allocates %v times", p, n)
				}
			}
		})
	}
}

// rawStates returns parses of body in each state of its large sets: as
// parsed (their first questions read rule lines), and laid out.
func rawStates(body string) map[string]*Robots {
	laid := Parse([]byte(body))
	layOutAll(laid)
	return map[string]*Robots{"parsed": Parse([]byte(body)), "laid-out": laid}
}

// TestRawStatesAgree checks Decide, for one agent and for a Group of
// several, against bruteDecision and the slow model on random files of
// raw rules where escaping as it goes could slip: "%" at the end of a
// pattern (followed, in the kept text, by a value of hex digits), hex digits after "*", lower-case escapes, "$", and index.htm
// rules under directories of such bytes; in records merged and split,
// small and large sets, each asked in every state (rawStates).
func TestRawStatesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	const alphabet = "/*$%aAeE1f\xe9\xc3i"
	word := func(n int) string { return randomWord(rng, alphabet, n) }
	pattern := func(file int) string {
		switch {
		case file%3 == 1 && rng.IntN(2) == 0:
			return "/" + word(rng.IntN(2)) + "*" + word(1+rng.IntN(4)) + []string{"", "$", "*"}[rng.IntN(3)]
		case file%3 == 2 && rng.IntN(2) == 0:
			return "/" + strings.ReplaceAll(word(rng.IntN(4)), "*", "") + "/index.htm" + word(rng.IntN(2))
		}
		switch rng.IntN(5) {
		case 0:
			return "/" + word(rng.IntN(3)) + "/index.html"
		case 1:
			return "*" + word(1+rng.IntN(4))
		case 2:
			return "/" + word(rng.IntN(5)) + "%"
		}
		return "/" + word(rng.IntN(6))
	}
	for file := range sample(150, 30) {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString("user-agent: a\n")
			if rng.IntN(2) == 0 {
				b.WriteString("user-agent: b\n")
			}
			n := rng.IntN(50)
			if rng.IntN(2) == 0 {
				n = ruleset.SmallSet + 1 + rng.IntN(60)
			}
			for range n {
				fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], pattern(file))
				if rng.IntN(4) == 0 {
					// Kept right after the pattern, never compiled.
					fmt.Fprintf(&b, "disallow: %s\n", randomWord(rng, "aAeE1f", 2))
				}
			}
		}
		body := b.String()
		var paths []string
		for range 24 {
			p := strings.NewReplacer("*", "E", "\xe9", "%E9", "\xc3", "%C3").Replace("/" + word(rng.IntN(8)))
			if rng.IntN(3) == 0 {
				p += "/"
			}
			paths = append(paths, p)
		}
		for how, r := range rawStates(body) {
			for k, path := range paths {
				agents := [][]string{{"a"}, {"b"}, {"a", "b", "*"}}[k%3]
				want, ok := bruteGroupDecision(r, agents, slowPathOf(path))
				d := r.Group(agents...).Decide(path)
				if len(agents) == 1 {
					d = r.Decide(agents[0], path)
				}
				slow := slowAllowed([]byte(body), agents, path)
				if ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule || d.Allowed != slow {
					t.Fatalf("file %d, %s: Decide(%q, %q) = %v, want %v (deciding: %t), slow model %t; file:\n%s",
						file, how, agents, path, d, want, ok, slow, body)
				}
			}
		}
	}
}

// rawSetSizes are corpus.RawSetSizes.
var rawSetSizes = corpus.RawSetSizes

func rawPadding(plain, wild int) string { return corpus.RawPadding(plain, wild) }
