package robots

// The lines Google ignores and others read (Extra), and the accessors of the
// known ones (request-rate and visit-time are of 1996); none changes Allowed.

import (
	"slices"
	"time"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/values"
)

// An Extra is a line whose key is none of user-agent, allow, disallow and
// sitemap (nor one of their accepted misspellings), such as "Crawl-delay: 5".
type Extra struct {
	Key   string // as written, without surrounding space ("Crawl-delay")
	Value string // as written, without comment or surrounding space
	Line  int    // 1-based
	// Record is the index, in Records, of the group the line stands in, or
	// -1 for a line before the first user-agent line.
	Record int
}

// Extras returns a copy of the lines of the file whose key is key, compared
// case-insensitively ("crawl-delay" finds "Crawl-Delay: 5"), in file order,
// wherever they stand; with an empty key, all of them.
func (r *Robots) Extras(key string) []Extra {
	if r == nil {
		return nil
	}
	var out []Extra
	r.table().EachLine(func(e *lines.Entry, rec int) { out = appendExtra(out, e, r.src.Text(), key, rec) })
	return out
}

// appendExtra appends to out the extra line of e, if its key is key (any
// if key is empty).
func appendExtra(out []Extra, e *lines.Entry, text, key string, rec int) []Extra {
	if e.Kind != lines.KindOther || key != "" && !lines.EqualFold(e.Key(text), key) {
		return out
	}
	return append(out, Extra{Key: e.Key(text), Value: e.L.Value(text), Line: e.L.Num(), Record: rec})
}

// GroupExtras returns r.Group(agent).Extras(key): the extra lines of the
// groups that apply to agent, chosen as for Allowed.
func (r *Robots) GroupExtras(agent, key string) []Extra {
	var g Group // on the stack: r.Group(agent) would allocate it
	r.group(agent, &g)
	return g.Extras(key)
}

// Extras returns, as Robots.Extras does, the extra lines that stand in the
// records of the group.
func (g *Group) Extras(key string) []Extra {
	if g == nil || g.file == nil {
		return nil
	}
	var one [1]int32
	n := 0 // counted first: 20,000 Content-Usage lines cost 1 MB, not the 5 MB of appending
	for _, rec := range g.records(&one) {
		g.file.table().EachRecordLine(int(rec), func(e *lines.Entry) { var x [1]Extra; n += len(appendExtra(x[:0], e, g.file.src.Text(), key, 0)) })
	}
	out := slices.Grow([]Extra(nil), n) // nil when n is 0, as before
	for _, rec := range g.records(&one) {
		g.file.table().EachRecordLine(int(rec), func(e *lines.Entry) { out = appendExtra(out, e, g.file.src.Text(), key, int(rec)) })
	}
	return out
}

// CrawlDelay returns r.Group(agent).CrawlDelay().
func (r *Robots) CrawlDelay(agent string) (delay time.Duration, ok bool) {
	return firstValid(r.GroupExtras(agent, values.KeyCrawlDelay), values.CrawlDelay)
}

// CrawlDelay returns the crawl-delay of the group, the minimum time between
// two requests as Bing and Yandex read it, from the first valid crawl-delay
// line of its records: seconds, with or without a fraction ("1", "1.5",
// ".5"); a value too large for a time.Duration is the largest one. ok is
// false when there is none. Google ignores crawl-delay.
func (g *Group) CrawlDelay() (delay time.Duration, ok bool) {
	return firstValid(g.Extras(values.KeyCrawlDelay), values.CrawlDelay)
}

// firstValid returns the first value of lines that parse accepts.
func firstValid[T any](lines []Extra, parse func(string) (T, error)) (v T, ok bool) {
	for _, e := range lines {
		if v, err := parse(e.Value); err == nil {
			return v, true
		}
	}
	return v, false
}

// A RequestRate is the value of a request-rate line: at most Requests
// requests every Per ("1/5" is one request every five seconds).
type RequestRate struct {
	Requests int
	Per      time.Duration
	// Window is the time of day in which the rate applies, when the line
	// gives one ("1/10m 0800-1700"); its zero value means all day.
	Window VisitTime
}

// RequestRate returns r.Group(agent).RequestRate().
func (r *Robots) RequestRate(agent string) (rate RequestRate, ok bool) {
	return firstValid(r.GroupExtras(agent, values.KeyRequestRate), parseRequestRate)
}

// RequestRate returns the request-rate of the group, from the first valid
// request-rate line of its records:
//
//	request-rate = requests "/" period [ unit ] [ 1*WSP visit-time ]
//	unit         = "s" | "m" | "h"   ; seconds when absent
//
// ok is false when there is none. Google ignores request-rate.
func (g *Group) RequestRate() (rate RequestRate, ok bool) {
	return firstValid(g.Extras(values.KeyRequestRate), parseRequestRate)
}

// A VisitTime is a daily window of UTC time, as in "visit-time: 0600-0845".
// Start and End are offsets from midnight UTC; a window whose End comes
// before its Start runs past midnight.
type VisitTime struct {
	Start, End time.Duration
}

// Contains reports whether the time of day of t, in UTC, is in the window,
// its start included and its end excluded.
func (v VisitTime) Contains(t time.Time) bool {
	d := t.Sub(t.Truncate(24 * time.Hour)) // since midnight UTC
	if v.Start <= v.End {
		return v.Start <= d && d < v.End
	}
	return d >= v.Start || d < v.End
}

// VisitTime returns r.Group(agent).VisitTime().
func (r *Robots) VisitTime(agent string) (window VisitTime, ok bool) {
	return firstValid(r.GroupExtras(agent, values.KeyVisitTime), parseVisitTime)
}

// VisitTime returns the visit-time of the group, from the first valid
// visit-time line of its records:
//
//	visit-time = hhmm "-" hhmm      ; UTC, such as 0600-0845
//	hhmm       = 2DIGIT [ ":" ] 2DIGIT
//
// ok is false when there is none. Google ignores visit-time.
func (g *Group) VisitTime() (window VisitTime, ok bool) {
	return firstValid(g.Extras(values.KeyVisitTime), parseVisitTime)
}

// Host returns the value of the first valid host line of the file, wherever
// it stands: the preferred host name of the site, as Yandex used to read it
// ("example.com", "https://example.com:8443"), as written. ok is false when
// there is none. Google ignores host.
func (r *Robots) Host() (host string, ok bool) {
	return firstValid(r.Extras(values.KeyHost), func(v string) (string, error) { return v, values.Host(v) })
}

// A CleanParam is a clean-param line, as Yandex reads it ("Clean-param:
// ref&sid /forum/"): query parameters that do not change the content of the
// pages whose path starts with Path (every page if empty).
type CleanParam struct {
	Params []string
	Path   string
	Line   int
}

// CleanParams returns the valid clean-param lines of the file, wherever they
// stand, in file order. Google ignores clean-param.
func (r *Robots) CleanParams() []CleanParam {
	var out []CleanParam
	for _, e := range r.Extras(values.KeyCleanParam) {
		if params, path, err := values.CleanParam(e.Value); err == nil {
			out = append(out, CleanParam{Params: params, Path: path, Line: e.Line})
		}
	}
	return out
}

func parseRequestRate(v string) (RequestRate, error) {
	n, per, from, to, err := values.RequestRate(v)
	return RequestRate{Requests: n, Per: per, Window: VisitTime{Start: from, End: to}}, err
}

func parseVisitTime(v string) (VisitTime, error) {
	from, to, err := values.VisitTime(v)
	return VisitTime{Start: from, End: to}, err
}
