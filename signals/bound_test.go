package signals

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// TestDecideHostileHeader checks that a page whose X-Robots-Tag header
// holds a million rules (4 MiB; a client's default bound on headers is
// 10 MiB) costs a bounded Decision and a few times its bytes, not a
// Directive and a Problem per rule (2.2 GB allocated, 1.4 million of each,
// before maxDirectives).
func TestDecideHostileHeader(t *testing.T) {
	for _, rule := range []string{"x, ", "noindex, ", "googlebot: noindex, "} {
		h := http.Header{"X-Robots-Tag": {strings.Repeat(rule, (4<<20)/len(rule)), "noindex"}}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d := Decide("http://a/", "Googlebot", Seen{Header: h, Now: testNow})
		runtime.ReadMemStats(&after)
		if n := len(d.Directives); n > maxDirectives {
			t.Errorf("%q: %d directives kept, want at most %d", rule, n, maxDirectives)
		}
		if n := len(d.Problems); n > maxDirectives+10 {
			t.Errorf("%q: %d problems, want at most %d", rule, n, maxDirectives+10)
		}
		if !strings.Contains(strings.Join(d.Problems, "\n"), "X-Robots-Tag is longer than 8192 bytes: the rest is ignored") {
			t.Errorf("%q: problems %q do not say rules were ignored", rule, d.Problems)
		}
		if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 32 {
			t.Errorf("%q: Decide allocated %d MiB for a 4 MiB header, want at most 32", rule, mb)
		}
	}
}

// TestParseRobotsValueBounded checks that one value yields at most
// maxDirectives rules.
func TestParseRobotsValueBounded(t *testing.T) {
	ds := ParseRobotsValue(SignalMeta, "robots", strings.Repeat("noai,", 100000))
	if len(ds) != maxDirectives {
		t.Errorf("%d rules, want %d", len(ds), maxDirectives)
	}
}
