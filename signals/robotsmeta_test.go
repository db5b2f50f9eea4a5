package signals

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// header parses X-Robots-Tag lines as Decide does.
func header(lines ...string) []Directive {
	var ds []Directive
	for _, l := range lines {
		ds = append(ds, ParseRobotsValue(SignalXRobotsTag, "", l)...)
	}
	return ds
}

func TestParseRobotsValue(t *testing.T) {
	tests := []struct {
		name   string
		signal string
		agent  string
		value  string
		want   []string // agent|name|value|text
	}{
		{"google/noindex", SignalMeta, "robots", "noindex", []string{"|noindex||noindex"}},
		{"google/case-insensitive", SignalMeta, "GoogleBot", "NoIndex, NOFOLLOW", []string{"googlebot|noindex||NoIndex", "googlebot|nofollow||NOFOLLOW"}},
		{"google/max-snippet-image", SignalMeta, "robots", "max-snippet:20, max-image-preview:large",
			[]string{"|max-snippet|20|max-snippet:20", "|max-image-preview|large|max-image-preview:large"}},
		{"google/header-agent", SignalXRobotsTag, "", "googlebot: nofollow", []string{"googlebot|nofollow||googlebot: nofollow"}},
		{"google/header-agent-several", SignalXRobotsTag, "", "otherbot: noindex, nofollow",
			[]string{"otherbot|noindex||otherbot: noindex", "otherbot|nofollow||otherbot: nofollow"}},
		{"google/header-unavailable-after", SignalXRobotsTag, "", "unavailable_after: 25 Jun 2010 15:00:00 PST",
			[]string{"|unavailable_after|25 Jun 2010 15:00:00 PST|unavailable_after: 25 Jun 2010 15:00:00 PST"}},
		{"google/header-agent-unavailable-after", SignalXRobotsTag, "", "googlebot: unavailable_after: 2020-09-21",
			[]string{"googlebot|unavailable_after|2020-09-21|googlebot: unavailable_after: 2020-09-21"}},
		{"rfc850-date-comma", SignalXRobotsTag, "", "noindex, unavailable_after: Sunday, 06-Nov-94 08:49:37 GMT, nofollow",
			[]string{"|noindex||noindex", "|unavailable_after|Sunday, 06-Nov-94 08:49:37 GMT|unavailable_after: Sunday, 06-Nov-94 08:49:37 GMT", "|nofollow||nofollow"}},
		{"agent-switch", SignalXRobotsTag, "", "a: noindex, b: nosnippet, noai", []string{"a|noindex||a: noindex", "b|nosnippet||b: nosnippet", "b|noai||b: noai"}},
		{"unknown-kept", SignalMeta, "robots", "noindex, noyaca, ", []string{"|noindex||noindex", "|noyaca||noyaca"}},
		{"empty", SignalMeta, "robots", " , ,", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range ParseRobotsValue(tt.signal, tt.agent, tt.value) {
				got = append(got, d.Agent+"|"+d.Name+"|"+d.Value+"|"+d.Text)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRobotsValue(%q) mismatch (-want +got):\n%s", tt.value, diff)
			}
		})
	}
}

func TestCombine(t *testing.T) {
	meta := func(name, content string) []Directive { return ParseRobotsValue(SignalMeta, name, content) }
	join := func(dss ...[]Directive) []Directive {
		var out []Directive
		for _, ds := range dss {
			out = append(out, ds...)
		}
		return out
	}
	t.Run("google/sum-of-negative-rules", func(t *testing.T) {
		// <meta name="robots" content="nofollow"> + <meta name="googlebot" content="noindex">
		ds := join(meta("robots", "nofollow"), meta("googlebot", "noindex"))
		if r := Combine("Googlebot", ds); !r.NoIndex || !r.NoFollow {
			t.Errorf("Googlebot: NoIndex %t NoFollow %t, want both", r.NoIndex, r.NoFollow)
		}
		if r := Combine("otherbot", ds); r.NoIndex || !r.NoFollow {
			t.Errorf("otherbot: NoIndex %t NoFollow %t, want nofollow only", r.NoIndex, r.NoFollow)
		}
	})
	t.Run("google/more-restrictive-wins", func(t *testing.T) {
		r := Combine("x", join(meta("robots", "max-snippet:50"), meta("robots", "nosnippet")))
		if !r.NoSnippet {
			t.Error("max-snippet:50 + nosnippet: NoSnippet false")
		}
		r = Combine("x", join(meta("robots", "max-snippet:50, max-image-preview:large"), meta("robots", "max-snippet:-1, max-snippet:20, max-image-preview:standard")))
		if r.MaxSnippet != 20 || r.MaxImagePreview != ImagePreviewStandard || r.By["max-snippet"].Text != "max-snippet:20" {
			t.Errorf("MaxSnippet %d, MaxImagePreview %d, by %q", r.MaxSnippet, r.MaxImagePreview, r.By["max-snippet"].Text)
		}
		r = Combine("x", header("max-video-preview:-1", "max-video-preview:0"))
		if r.MaxVideoPreview != 0 {
			t.Errorf("MaxVideoPreview = %d, want 0", r.MaxVideoPreview)
		}
	})
	t.Run("google/max-snippet-0-is-nosnippet", func(t *testing.T) {
		if r := Combine("x", meta("robots", "max-snippet:0")); !r.NoSnippet {
			t.Error("max-snippet:0: NoSnippet false")
		}
	})
	t.Run("google/none", func(t *testing.T) {
		if r := Combine("x", meta("robots", "none")); !r.NoIndex || !r.NoFollow {
			t.Error("none: want noindex and nofollow")
		}
	})
	t.Run("google/header-scoped", func(t *testing.T) {
		ds := header("googlebot: nofollow", "otherbot: noindex, nofollow")
		if r := Combine("googlebot", ds); r.NoIndex || !r.NoFollow {
			t.Errorf("googlebot: NoIndex %t NoFollow %t", r.NoIndex, r.NoFollow)
		}
		if r := Combine("OtherBot", ds); !r.NoIndex || !r.NoFollow {
			t.Errorf("otherbot: NoIndex %t NoFollow %t", r.NoIndex, r.NoFollow)
		}
		if r := Combine("third", ds); r.NoIndex || r.NoFollow {
			t.Errorf("third: NoIndex %t NoFollow %t", r.NoIndex, r.NoFollow)
		}
	})
	t.Run("extensions", func(t *testing.T) {
		r := Combine("x", meta("robots", "noai, noimageai, noml, noarchive, nocache"))
		if !r.NoAI || !r.NoImageAI || !r.NoML || !r.NoArchive || !r.NoCache {
			t.Errorf("%+v", r)
		}
	})
	t.Run("unknown-reported", func(t *testing.T) {
		r := Combine("x", meta("robots", "noindex, noodp, max-snippet:lots, max-image-preview:huge"))
		if len(r.Unknown) != 1 || r.Unknown[0].Name != "noodp" {
			t.Errorf("Unknown = %v", r.Unknown)
		}
		if len(r.Problems) != 2 {
			t.Errorf("Problems = %q, want 2", r.Problems)
		}
	})
	t.Run("unavailable-after-earliest", func(t *testing.T) {
		r := Combine("x", header("unavailable_after: 2030-01-02", "unavailable_after: 25 Jun 2010 15:00:00 PST", "unavailable_after: someday"))
		want := time.Date(2010, 6, 25, 23, 0, 0, 0, time.UTC)
		if !r.UnavailableAfter.Equal(want) {
			t.Errorf("UnavailableAfter = %v, want %v", r.UnavailableAfter, want)
		}
		if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "someday") {
			t.Errorf("Problems = %q", r.Problems)
		}
	})
}

func TestParseDate(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2020-09-21", utc(2020, 9, 21, 0, 0, 0)},                         // Google's example
		{"25 Jun 2010 15:00:00 PST", utc(2010, 6, 25, 23, 0, 0)},          // Google's header example
		{"Sunday, 06-Nov-94 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)},   // RFC 850
		{"Sun, 06 Nov 1994 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)},    // RFC 822/1123
		{"06 Nov 94 08:49 GMT", utc(1994, 11, 6, 8, 49, 0)},               // RFC 822
		{"1994-11-06T08:49:37+01:00", utc(1994, 11, 6, 7, 49, 37)},        // ISO 8601
		{"1994-11-06T08:49:37", utc(1994, 11, 6, 8, 49, 37)},              // ISO 8601, no zone
		{"Sun Nov  6 08:49:37 1994", utc(1994, 11, 6, 8, 49, 37)},         // ANSI C
		{"Sun, 06 Nov 1994 08:49:37 -0500", utc(1994, 11, 6, 13, 49, 37)}, // RFC 1123 numeric zone
	}
	for _, tt := range tests {
		got, err := ParseDate(tt.in)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseDate(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "2020-13-45", "32 Jun 2010", strings.Repeat("1", 10000)} {
		if _, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%.20q) = nil error, want one", bad)
		}
	}
}
