package signals

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileFields are header fields of about 9 MB each (a client's default
// bound on a response header is 10 MB), one per field Decide reads.
func hostileFields() map[string]http.Header {
	const size = 9 << 20
	rep := func(s string) string { return strings.Repeat(s, size/len(s)) }
	return map[string]http.Header{
		"content-usage/members":       {"Content-Usage": {rep("train-ai=n, ")}},
		"content-usage/one-string":    {"Content-Usage": {`train-ai="` + rep("a") + `"`}},
		"content-usage/many-lines":    {"Content-Usage": strings.Split(rep("search=y\n"), "\n")},
		"content-signal/members":      {"Content-Signal": {rep("ai-train=no, ")}},
		"x-robots-tag/rules":          {"X-Robots-Tag": {rep("noindex, ")}},
		"x-robots-tag/one-rule":       {"X-Robots-Tag": {"unavailable_after: " + rep("9")}},
		"tdm-policy/long":             {"Tdm-Reservation": {"1"}, "Tdm-Policy": {"https://a/" + rep("p")}},
		"tdm-reservation/long":        {"Tdm-Reservation": {rep("1")}},
		"content-usage/unknown-keys":  {"Content-Usage": {rep("k=y, ")}},
		"content-signal/unknown-keys": {"Content-Signal": {rep("k=yes, ")}},
	}
}

// TestHostileFieldsCost checks that a header field of 9 MB costs Decide a
// bounded Decision and at most 20 MB allocated, with a problem that says
// the field was cut (issue 32, item 3). The time is logged, not checked.
func TestHostileFieldsCost(t *testing.T) {
	for name, h := range hostileFields() {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			d := Decide("http://a/", "Googlebot", Seen{Header: h, Now: testNow})
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
			t.Logf("%s: %v, %.1f MB allocated", name, took, mb)
			if mb > 20 {
				t.Errorf("Decide allocated %.1f MB for a 9 MB field, want at most 20", mb)
			}
			want := map[string]string{"tdm-policy/long": "tdm-policy longer than 2048 bytes, ignored",
				"tdm-reservation/long": "not 0 or 1, read as unset"}[name]
			if want == "" {
				want = " is longer than 8192 bytes: the rest is ignored"
			}
			if !strings.Contains(strings.Join(d.Problems, "\n"), want) {
				t.Errorf("problems %q do not say %q", d.Problems, want)
			}
			text := 0
			for _, p := range d.Problems {
				text += len(p)
			}
			for _, u := range AllUses {
				for _, r := range d.Uses.Get(u).By {
					text += len(r.Detail)
				}
			}
			if text > 64<<10 {
				t.Errorf("the Decision holds %d bytes of text, want at most 64 KiB", text)
			}
		})
	}
}

// TestTDMRepHostileCost checks that a tdmrep.json of 170,000 empty rules
// (the most 500 KiB holds) keeps a bounded list of problems (170,000
// strings per origin before) and allocates a bounded amount (120 MB
// before; issue 32, item 3).
func TestTDMRepHostileCost(t *testing.T) {
	data := []byte("[" + strings.Repeat("{},", 170000-1) + "{}]")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f, err := ParseTDMRep(data)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
	t.Logf("170,000 {}: %v, %.1f MB allocated", took, mb)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Problems); n > maxTDMProblems+2 {
		t.Errorf("%d problems kept, want at most %d", n, maxTDMProblems+2)
	}
	all := strings.Join(f.Problems, "\n")
	for _, want := range []string{"more than 10000 entries: the others are not read", "9900 more rules with problems not listed"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems do not say %q", want)
		}
	}
	if mb > 20 {
		t.Errorf("%.1f MB allocated, want at most 20", mb)
	}
}

// BenchmarkHostileFields decides each 9 MB header of hostileFields: ns/op
// and B/op are the figures of issue 32, item 3.
func BenchmarkHostileFields(b *testing.B) {
	for name, h := range hostileFields() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Decide("http://a/", "Googlebot", Seen{Header: h, Now: testNow})
			}
		})
	}
}
