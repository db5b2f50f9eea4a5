package signals

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gorep/robots"
)

// fuzzMaxBytes bounds the inputs of this package's fuzz targets: each
// returns at once on a larger one, as the robots package's do (see
// fuzzMaxBytes there). Go's fuzzer minimises every input that reaches new
// code before it goes on, for up to a minute by default, trying candidates
// in number quadratic in the input's size (about n²/2): a new input of a
// few KiB held FuzzReadHead's workers minimising, at 0 executions a second,
// for 30 s of a 60 s run; at 1 KiB, FuzzRobotsValue's for 40 s (half a
// million candidates, on a loaded machine). A larger input reaches no new
// code, so it is never minimised; the tests of each parser read the large
// inputs (bound_test.go, usage_bound_test.go). 256 bytes hold a head with
// a few meta tags, a header of a dozen rules.
const fuzzMaxBytes = 256

// tooLargeToFuzz reports whether the arguments of a fuzz target are over
// fuzzMaxBytes in all.
func tooLargeToFuzz(page []byte, strs ...string) bool {
	n := len(page)
	for _, s := range strs {
		n += len(s)
	}
	return n > fuzzMaxBytes
}

// FuzzRobotsValue checks that any value parses without panic, that every
// rule keeps text it came from, and that combining never panics.
func FuzzRobotsValue(f *testing.F) {
	for _, s := range []string{"noindex, nofollow", "googlebot: unavailable_after: Sunday, 06-Nov-94 08:49:37 GMT",
		"a: max-snippet:-1, b: max-image-preview:large", "unavailable_after: Sun, , ,noai", ":::,:"} {
		f.Add(s, "robots")
	}
	f.Fuzz(func(t *testing.T, value, name string) {
		if tooLargeToFuzz(nil, value, name) {
			return
		}
		for _, sig := range []string{SignalMeta, SignalXRobotsTag} {
			ds := ParseRobotsValue(sig, name, value)
			for _, d := range ds {
				if d.Name == "" && d.Text == "" {
					t.Fatalf("ParseRobotsValue(%q) gave an empty rule", value)
				}
			}
			r := Combine("a", ds)
			if r.HasMaxSnippet && r.MaxSnippet < -1 {
				t.Fatalf("MaxSnippet %d", r.MaxSnippet)
			}
		}
	})
}

// FuzzReadHead checks that ReadHead never panics, never reads past its
// limit, and keeps only metas it saw.
func FuzzReadHead(f *testing.F) {
	f.Add([]byte(tdmrepHTML), int64(0))
	f.Add([]byte(`<head><title>x<meta name=a content=b></title><template><meta name=c content=d></template><meta name=e content=f>`), int64(40))
	f.Fuzz(func(t *testing.T, page []byte, limit int64) {
		if tooLargeToFuzz(page) {
			return
		}
		limit %= 4096
		h, err := ReadHead(bytes.NewReader(page), limit)
		if err != nil {
			t.Fatal(err)
		}
		max := limit
		if max <= 0 {
			max = DefaultHeadLimit
		}
		if h.Read > max || h.Read > int64(len(page)) {
			t.Fatalf("read %d bytes of %d with limit %d", h.Read, len(page), limit)
		}
		for _, m := range h.Metas {
			if m.Offset < 0 || m.Offset > int64(len(page)) {
				t.Fatalf("meta at offset %d of %d", m.Offset, len(page))
			}
		}
	})
}

// FuzzTDMRep checks that any file parses or fails cleanly, and that a
// match is always the first matching rule.
func FuzzTDMRep(f *testing.F) {
	f.Add([]byte(tdmrepGroups), "/directory-b/images/a.jpg")
	f.Add([]byte(`[{"location":"/a*$","tdm-reservation":1},{"location":"/","tdm-reservation":0}]`), "/a$")
	f.Fuzz(func(t *testing.T, data []byte, url string) {
		if tooLargeToFuzz(data, url) {
			return
		}
		file, err := ParseTDMRep(data)
		if err != nil {
			if file != nil {
				t.Fatal("a file and an error")
			}
			return
		}
		rule, ok := file.Match(url)
		if !ok {
			return
		}
		if rule.Index < 0 || !json.Valid(data) {
			t.Fatalf("rule %+v from invalid JSON", rule)
		}
		for _, earlier := range file.Rules {
			if earlier.Index >= rule.Index {
				break
			}
			one, _ := ParseTDMRep([]byte(`[{"location":` + mustJSON(earlier.Location) + `,"tdm-reservation":1}]`))
			if _, m := one.Match(url); m {
				t.Fatalf("rule %d matched, but earlier rule %d (%q) matches too", rule.Index, earlier.Index, earlier.Location)
			}
		}
	})
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// FuzzHeaders checks the Content-Usage and Content-Signal parsers and
// Decide over any headers.
func FuzzHeaders(f *testing.F) {
	f.Add("train-ai=n, ai-use=y", "search=yes, ai-train=no", "googlebot: noindex", "1")
	f.Add(`a=(b c);d, e="\"`, "=,=", "unavailable_after: Sun, 1 Jan", "x")
	f.Fuzz(func(t *testing.T, usage, signal, xrt, tdm string) {
		if tooLargeToFuzz(nil, usage, signal, xrt, tdm) {
			return
		}
		for field, f := range map[string]func([]string) []robots.Preference{
			"Content-Usage": func(v []string) []robots.Preference {
				u, _ := contentUsageHeader(v)
				return []robots.Preference{u.TrainAI, u.AIUse, u.Search}
			},
			"Content-Signal": func(v []string) []robots.Preference {
				s, _ := contentSignalHeader(v)
				return []robots.Preference{s.Search, s.AIInput, s.AITrain}
			},
		} {
			for _, p := range f([]string{usage, signal}) {
				if p > robots.PreferenceNo {
					t.Fatalf("%s %q, %q: preference %v", field, usage, signal, p)
				}
			}
		}
		h := http.Header{"Content-Usage": {usage}, "Content-Signal": {signal}, "X-Robots-Tag": {xrt}, "Tdm-Reservation": {tdm}}
		d := Decide("/p", "a", Seen{Robots: robots.Parse(nil), Header: h, Now: testNow})
		for _, u := range AllUses {
			if v := d.Uses.Get(u); v.By == nil || (v.Answer == Unknown) != (len(v.By) == 0) {
				t.Fatalf("%s = %+v", u, v)
			}
		}
	})
}
