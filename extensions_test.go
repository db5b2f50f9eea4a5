package robots

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCrawlDelay(t *testing.T) {
	const body = "crawl-delay: 99\n" + // before any group: ignored
		"user-agent: *\ncrawl-delay: 10 \ndisallow: /a\n\n" +
		"user-agent: bingbot\ncrawl-delay: soon\ncrawl-delay: 1.5\ncrawl-delay: 3\ndisallow: /b\n\n" +
		"user-agent: slurp\ndisallow: /b\n\n" +
		"user-agent: yandex\ncrawl-delay: 2\nuser-agent: yeti\ndisallow: /c\n"
	r := Parse([]byte(body))
	tests := []struct {
		agent string
		want  time.Duration
		ok    bool
	}{
		{"otherbot", 10 * time.Second, true},       // the "*" group, trailing space tolerated
		{"Bingbot", 1500 * time.Millisecond, true}, // first valid line of its group
		{"slurp", 0, false},                        // its own group has none; "*" is not consulted
		{"yeti", 2 * time.Second, true},            // the crawl-delay line does not end the group
	}
	for _, tt := range tests {
		got, ok := r.CrawlDelay(tt.agent)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CrawlDelay(%q) = %v, %t, want %v, %t", tt.agent, got, ok, tt.want, tt.ok)
		}
	}
	var nilRobots *Robots
	if _, ok := nilRobots.CrawlDelay("x"); ok {
		t.Error("nil CrawlDelay found a delay")
	}
	if _, ok := DisallowAll().CrawlDelay("x"); ok {
		t.Error("DisallowAll().CrawlDelay found a delay")
	}
}

func TestRequestRateAndVisitTime(t *testing.T) {
	r := Parse([]byte("user-agent: *\nrequest-rate: one\nrequest-rate: 3/10m 0800-1730\nvisit-time: 2200 - 06:30\n" +
		"user-agent: a\ndisallow: /\n\nuser-agent: b\nrequest-rate: 1/5\nrequest-rate: 2/1h\n"))
	rate, ok := r.RequestRate("x")
	want := RequestRate{Requests: 3, Per: 10 * time.Minute, Window: VisitTime{8 * time.Hour, 17*time.Hour + 30*time.Minute}}
	if !ok || rate != want {
		t.Errorf("RequestRate(x) = %+v, %t, want %+v", rate, ok, want)
	}
	if rate, ok := r.RequestRate("b"); !ok || rate != (RequestRate{Requests: 1, Per: 5 * time.Second}) {
		t.Errorf("RequestRate(b) = %+v, %t, want 1 per 5s", rate, ok)
	}
	v, ok := r.VisitTime("x")
	if !ok || v != (VisitTime{22 * time.Hour, 6*time.Hour + 30*time.Minute}) {
		t.Errorf("VisitTime(x) = %+v, %t", v, ok)
	}
	if _, ok := r.VisitTime("b"); ok {
		t.Error("VisitTime(b) found a window")
	}
	for _, tt := range []struct {
		clock string
		want  bool
	}{{"23:00", true}, {"03:00", true}, {"06:30", false}, {"12:00", false}, {"22:00", true}} {
		at, _ := time.Parse("15:04", tt.clock)
		if got := v.Contains(at); got != tt.want {
			t.Errorf("%+v.Contains(%s) = %t, want %t", v, tt.clock, got, tt.want)
		}
	}
	day := VisitTime{6 * time.Hour, 8*time.Hour + 45*time.Minute}
	if !day.Contains(time.Date(2024, 1, 1, 9, 0, 0, 0, time.FixedZone("CET", 3600))) {
		t.Error("Contains does not read the time in UTC")
	}
	for _, bad := range []string{"0600", "2500-0100", "0660-0700", "6-8", "06:00-0x00", "2401-0000"} {
		if _, err := parseVisitTime(bad); err == nil {
			t.Errorf("parseVisitTime(%q) succeeded", bad)
		}
	}
	for _, bad := range []string{"1", "0/5", "1/0", "1/5d", "/5", "1/5 25:00-26:00"} {
		if _, err := parseRequestRate(bad); err == nil {
			t.Errorf("parseRequestRate(%q) succeeded", bad)
		}
	}
}

func TestHostAndCleanParam(t *testing.T) {
	r := Parse([]byte("host: not a host\nuser-agent: yandex\ndisallow: /a\nHost: https://www.example.com:8443\n" +
		"clean-param: ref&sid /forum/\nclean-param: &\nuser-agent: *\nclean-param: utm_source\nhost: other.example.com\n"))
	if h, ok := r.Host(); !ok || h != "https://www.example.com:8443" {
		t.Errorf("Host() = %q, %t, want the first valid one", h, ok)
	}
	want := []CleanParam{
		{Params: []string{"ref", "sid"}, Path: "/forum/", Line: 5},
		{Params: []string{"utm_source"}, Line: 8},
	}
	if diff := cmp.Diff(want, r.CleanParams()); diff != "" {
		t.Errorf("CleanParams() mismatch (-want +got):\n%s", diff)
	}
	if h, ok := Parse([]byte("user-agent: *\n")).Host(); ok {
		t.Errorf("Host() = %q without a host line", h)
	}
}

func TestExtras(t *testing.T) {
	const body = "Crawl-Delay: 1\n" +
		"user-agent: a\nX-Custom: one # comment\ndisallow: /\nsitemap: https://example.com/s.xml\nunknown-line\n\n" +
		"user-agent: *\ncontent-signal: search=yes, ai-train=no\nx-custom: two\n"
	r := Parse([]byte(body))
	all := []Extra{
		{Key: "Crawl-Delay", Value: "1", Line: 1, Record: -1},
		{Key: "X-Custom", Value: "one", Line: 3, Record: 0},
		{Key: "content-signal", Value: "search=yes, ai-train=no", Line: 9, Record: 1},
		{Key: "x-custom", Value: "two", Line: 10, Record: 1},
	}
	tests := []struct {
		name string
		got  []Extra
		want []Extra
	}{
		{"file/all", r.Extras(""), all},
		{"file/key-folds-case", r.Extras("x-CUSTOM"), []Extra{all[1], all[3]}},
		{"file/none", r.Extras("host"), nil},
		{"group/named", r.GroupExtras("A", ""), []Extra{all[1]}},
		{"group/global", r.GroupExtras("otherbot", "Content-Signal"), []Extra{all[2]}},
		{"group/named-has-none", r.GroupExtras("a", "content-signal"), nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	// The result is a copy.
	r.Extras("")[0].Value = "changed"
	if got := r.Extras("crawl-delay")[0].Value; got != "1" {
		t.Errorf("changing the result of Extras changed the file: %q", got)
	}
	// Extras change nothing Google reads.
	plain := Parse([]byte(strings.NewReplacer("Crawl-Delay: 1\n", "\n", "X-Custom: one # comment\n", "\n",
		"content-signal: search=yes, ai-train=no\n", "\n", "x-custom: two\n", "\n").Replace(body)))
	if diff := cmp.Diff(plain.Records(), r.Records()); diff != "" {
		t.Errorf("extras changed the records (-without +with):\n%s", diff)
	}
	var nilRobots *Robots
	if nilRobots.Extras("") != nil || nilRobots.GroupExtras("a", "") != nil || nilRobots.CleanParams() != nil {
		t.Error("a nil Robots has extras")
	}
}

// TestParseExtrasNoAllocs checks that keeping extras costs nothing for a
// file that has none.
func TestParseExtrasNoAllocs(t *testing.T) {
	body := []byte(googleExample)
	withExtras := []byte(googleExample + "\ncrawl-delay: 5\n")
	// Each Parse in fresh scratch space: the pool Parse takes it from
	// drops what it is given at random under the race detector.
	base := testing.AllocsPerRun(50, func() { parseWith(body, new(parseScratch)) })
	with := testing.AllocsPerRun(50, func() { parseWith(withExtras, new(parseScratch)) })
	if with > base+1 {
		t.Errorf("Parse allocates %v times with one extra line, %v without", with, base)
	}
}

// TestGroupExtensions checks the extension accessors of Group, which
// honour several agents as Allowed does.
func TestGroupExtensions(t *testing.T) {
	r := Parse([]byte("user-agent: b\ncrawl-delay: 2\ndisallow: /b\n\n" +
		"user-agent: a\ncrawl-delay: x\nrequest-rate: 1/5\ndisallow: /a\n\n" +
		"user-agent: *\ncrawl-delay: 3\nvisit-time: 0600-0845\n"))
	tests := []struct {
		name   string
		agents []string
		delay  time.Duration // 0: none
		rate   bool
		visit  bool
		lines  []int // of Extras("")
	}{
		{"one", []string{"a"}, 0, true, false, []int{6, 7}},
		{"several", []string{"a", "B"}, 2 * time.Second, true, false, []int{2, 6, 7}},
		{"unknown-and-known", []string{"zz", "b"}, 2 * time.Second, false, false, []int{2}},
		{"none-named", []string{"zz", "yy"}, 3 * time.Second, false, true, []int{11, 12}},
		{"no-agent", nil, 3 * time.Second, false, true, []int{11, 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := r.Group(tt.agents...)
			d, ok := g.CrawlDelay()
			if ok != (tt.delay != 0) || d != tt.delay {
				t.Errorf("CrawlDelay() = %v, %t, want %v", d, ok, tt.delay)
			}
			if _, ok := g.RequestRate(); ok != tt.rate {
				t.Errorf("RequestRate() ok = %t, want %t", ok, tt.rate)
			}
			if _, ok := g.VisitTime(); ok != tt.visit {
				t.Errorf("VisitTime() ok = %t, want %t", ok, tt.visit)
			}
			var lines []int
			for _, e := range g.Extras("") {
				lines = append(lines, e.Line)
			}
			if diff := cmp.Diff(tt.lines, lines); diff != "" {
				t.Errorf("Extras lines (-want +got):\n%s", diff)
			}
		})
	}
	var nilGroup *Group
	if d, ok := nilGroup.CrawlDelay(); ok || d != 0 || nilGroup.Extras("") != nil {
		t.Errorf("nil Group has extras")
	}
}
