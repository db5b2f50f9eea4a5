package bench

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/floor"
	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"
)

// realFiles are the real robots.txt files of testdata/, by role; see
// testdata/README.md for why these.
var realFiles = []struct {
	role, file string
}{
	{"small", "protego__www.usu.edu.txt"},
	{"median", "protego__www.npr.org.txt"},
	{"2.9k", "texting__twitter.txt"},
	{"large", "egonkm__es.shopify.com.txt"},
	{"largest", "avuim__www.expert.de.txt"},
}

// A query is one benchmark question: may agent fetch url?
type query struct {
	agent string
	url   string // as given to robots and grobotstxt
	path  string // the path, parameters and query of url, as given to temoto
	allow bool   // the verdict of Google's reference parser
}

// load returns the body of a real file and its queries, which are in
// testdata/<name>.queries.
func load(tb testing.TB, file string) ([]byte, []query) {
	tb.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		tb.Fatal(err)
	}
	qf := filepath.Join("testdata", strings.TrimSuffix(file, ".txt")+".queries")
	data, err := os.ReadFile(qf)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []query
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || (f[2] != "allow" && f[2] != "disallow") {
			tb.Fatalf("%s:%d: want agent<TAB>url<TAB>allow|disallow, got %q", qf, n, line)
		}
		qs = append(qs, query{agent: f[0], url: f[1], path: pathOf(f[1]), allow: f[2] == "allow"})
	}
	return body, qs
}

// queriesOf returns queries for the agent "Googlebot" and urls, for the
// generated files.
func queriesOf(urls []string) []query {
	qs := make([]query, len(urls))
	for i, u := range urls {
		qs[i] = query{agent: "Googlebot", url: u, path: pathOf(u)}
	}
	return qs
}

// pathOf returns the path, parameters and query of an absolute URL of the
// benchmark queries, without the fragment: what temoto's Group.Test wants.
func pathOf(url string) string {
	_, rest, ok := strings.Cut(url, "://")
	if !ok {
		rest = url
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return "/"
	}
	p := rest[i:]
	if j := strings.IndexByte(p, '#'); j >= 0 {
		p = p[:j]
	}
	return p
}

// Sinks keep the compiler from discarding the work measured.
var (
	sinkBool   bool
	sinkInt    int
	sinkRobots *robots.Robots
	sinkTemoto *robotstxt.RobotsData
)

// discard is a grobotstxt.ParseHandler that keeps nothing.
type discard struct{}

func (discard) HandleRobotsStart()                      {}
func (discard) HandleRobotsEnd()                        {}
func (discard) HandleUserAgent(int, string)             {}
func (discard) HandleAllow(int, string)                 {}
func (discard) HandleDisallow(int, string)              {}
func (discard) HandleSitemap(int, string)               {}
func (discard) HandleUnknownAction(int, string, string) {}

// BenchmarkParse measures parse throughput on the real files.
//
// robots: Parse, which also compiles the rules for matching. temoto:
// FromBytes. grobotstxt keeps nothing it could query later; its figure is
// one pass of its parser with a handler that keeps nothing, the work each
// of its queries repeats.
func BenchmarkParse(b *testing.B) {
	for _, f := range realFiles {
		body, _ := load(b, f.file)
		benchParse(b, "file="+f.role, body)
	}
}

// benchParse runs the parse benchmarks of the three libraries on body.
// robots' is Parse and a first question for Googlebot: Parse leaves the
// groups to the first question, which temoto's FromBytes makes.
func benchParse(b *testing.B, name string, body []byte) {
	b.Run("lib=robots/"+name, func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			sinkRobots = robots.Parse(body)
			sinkBool = sinkRobots.Allowed("Googlebot", "/some/page.html")
		}
	})
	b.Run("lib=temoto/"+name, func(b *testing.B) {
		if _, err := robotstxt.FromBytes(body); err != nil {
			b.Skipf("temoto rejects the file: %v", err)
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			sinkTemoto, _ = robotstxt.FromBytes(body)
		}
	})
	b.Run("lib=grobotstxt/"+name, func(b *testing.B) {
		s := string(body)
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			grobotstxt.Parse(s, discard{})
		}
	})
}

// BenchmarkAllowed measures the cost of one query on the real files, the
// file parsed beforehand: ns/op and allocs/op are per query. Each
// iteration asks the next query of the file's list, in turn.
func BenchmarkAllowed(b *testing.B) {
	for _, f := range realFiles {
		body, qs := load(b, f.file)
		benchAllowed(b, "file="+f.role, body, qs, true, nil)
	}
}

// benchAllowed runs the query benchmarks of the libraries on body, each
// iteration asking one of qs in turn. withGrobot includes grobotstxt, which
// parses body again for every query. report, if not nil, reports more
// metrics at the end of each.
func benchAllowed(b *testing.B, name string, body []byte, qs []query, withGrobot bool, report func(*testing.B)) {
	run := func(lib string, f func(b *testing.B)) {
		b.Run("lib="+lib+"/"+name, func(b *testing.B) {
			f(b)
			if report != nil {
				report(b)
			}
		})
	}
	run("robots", func(b *testing.B) {
		r := robots.Parse(body)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			q := &qs[i]
			sinkBool = r.Allowed(q.agent, q.url)
			if i++; i == len(qs) {
				i = 0
			}
		}
	})
	// Groups resolved beforehand, asked for the full URL or for the path
	// temoto is given.
	group := func(arg func(q *query) string) func(b *testing.B) {
		return func(b *testing.B) {
			r := robots.Parse(body)
			gs := make([]*robots.Group, len(qs))
			args := make([]string, len(qs))
			for i := range qs {
				gs[i], args[i] = r.Group(qs[i].agent), arg(&qs[i])
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				sinkBool = gs[i].Allowed(args[i])
				if i++; i == len(qs) {
					i = 0
				}
			}
		}
	}
	run("robots-group", group(func(q *query) string { return q.url }))
	run("robots-path", group(func(q *query) string { return q.path }))
	// The floors (floor_test.go, doc.go): the least work of answering
	// Allowed(agent, url) from the URL and the agent ("floor"), and of the
	// match alone, on the path split and the heads found beforehand
	// ("floor-match").
	run("floor", func(b *testing.B) {
		f := newFloorFile(robots.Parse(body))
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			q := &qs[i]
			if heads := f.HeadsFor(q.agent); len(heads) > 0 {
				n += floor.CountPrefixes(floor.Path(q.url), heads)
			}
			if i++; i == len(qs) {
				i = 0
			}
		}
		sinkInt = n
	})
	run("floor-match", func(b *testing.B) {
		heads := floorHeads(newFloorFile(robots.Parse(body)), qs)
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			n += floor.CountPrefixes(qs[i].path, heads[i])
			if i++; i == len(qs) {
				i = 0
			}
		}
		sinkInt = n
	})
	run("temoto", func(b *testing.B) {
		r, err := robotstxt.FromBytes(body)
		if err != nil {
			b.Skipf("temoto rejects the file: %v", err)
		}
		gs := make([]*robotstxt.Group, len(qs))
		for i, q := range qs {
			gs[i] = r.FindGroup(q.agent)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			sinkBool = gs[i].Test(qs[i].path)
			if i++; i == len(qs) {
				i = 0
			}
		}
	})
	run("temoto-agent", func(b *testing.B) {
		r, err := robotstxt.FromBytes(body)
		if err != nil {
			b.Skipf("temoto rejects the file: %v", err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			q := &qs[i]
			sinkBool = r.TestAgent(q.path, q.agent)
			if i++; i == len(qs) {
				i = 0
			}
		}
	})
	if !withGrobot {
		return
	}
	run("grobotstxt", func(b *testing.B) {
		s := string(body)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			q := &qs[i]
			sinkBool = grobotstxt.AgentAllowed(s, q.agent, q.url)
			if i++; i == len(qs) {
				i = 0
			}
		}
	})
}

// grobotMaxBytes is the largest generated file on which grobotstxt's
// per-query call is measured. It parses the whole file for every query:
// beyond this size one query takes milliseconds, and measuring it would
// take most of the run while showing only what BenchmarkParse shows.
const grobotMaxBytes = 64 << 10

// BenchmarkAllowedRules measures how the cost of one query grows with the
// number of rules, on generated files (see synth_test.go). The metric
// "rules" is the number of rules robots kept: a file longer than
// robots.MaxSize is cut, for every library.
func BenchmarkAllowedRules(b *testing.B) {
	for _, kind := range synthKinds {
		for _, n := range ruleCounts {
			body, urls := synth(kind, n)
			body = capped(body)
			kept := ruleCount(robots.Parse(body))
			name := "kind=" + kind + "/rules=" + strconv.Itoa(n)
			benchAllowed(b, name, body, queriesOf(urls), len(body) <= grobotMaxBytes, func(b *testing.B) {
				b.ReportMetric(float64(kept), "rules")
			})
		}
	}
}

// BenchmarkParseRules measures parse throughput on the generated files.
func BenchmarkParseRules(b *testing.B) {
	for _, kind := range synthKinds {
		for _, n := range ruleCounts {
			body, _ := synth(kind, n)
			benchParse(b, "kind="+kind+"/rules="+strconv.Itoa(n), capped(body))
		}
	}
}

// pathLens are the path lengths of BenchmarkAllowedPathLen, in bytes.
var pathLens = []int{10, 100, 1000, 10000}

// BenchmarkAllowedPathLen measures how the cost of one query grows with
// the length of the path, on the generated files of 1,000 rules and on the
// largest real file (wildcard-heavy).
func BenchmarkAllowedPathLen(b *testing.B) {
	type file struct {
		name string
		body []byte
	}
	var files []file
	for _, kind := range synthKinds {
		body, _ := synth(kind, 1000)
		files = append(files, file{"kind=" + kind + "/rules=1000", body})
	}
	largest, _ := load(b, realFiles[len(realFiles)-1].file)
	files = append(files, file{"file=largest", largest})
	for _, f := range files {
		for _, n := range pathLens {
			u := "https://example.com" + longPath(n)
			qs := queriesOf([]string{u})
			benchAllowed(b, f.name+"/len="+strconv.Itoa(n), f.body, qs, len(f.body) <= grobotMaxBytes, nil)
		}
	}
}

// worstLens are the path lengths of BenchmarkWorstCase, in bytes.
var worstLens = []int{1 << 10, 2 << 10, 4 << 10, 8 << 10}

// BenchmarkWorstCase measures the bound that the package doc and README
// state: one warm question, for a path of 1, 2, 4 and 8 KB made of the
// words the rules use (longPath), against the generated files of 1,000 and
// 10,000 wildcard rules: warm, and the file's first question (Parse
// untimed). Issue 23 asks that doubling the path at most double the time,
// and at most 200 µs at 8 KB.
func BenchmarkWorstCase(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		body, _ := synth("wildcard", n)
		r := robots.Parse(capped(body))
		for _, size := range worstLens {
			u := "https://example.com" + longPath(size)
			for range 30 { // past the questions that compile and lay out the set
				sinkBool = r.Allowed("Googlebot", u)
			}
			name := "rules=" + strconv.Itoa(n) + "/len=" + strconv.Itoa(size>>10) + "KB"
			b.Run(name+"/q=warm", func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					sinkBool = r.Allowed("Googlebot", u)
				}
			})
			b.Run(name+"/q=first", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					f := robots.Parse(capped(body))
					b.StartTimer()
					sinkBool = f.Allowed("Googlebot", u)
				}
			})
		}
	}
}

// BenchmarkSize measures the memory a parsed file holds, against the
// size of the file: "retained-B" is the live heap of one parsed value,
// "x-input" that divided by the file's length. It is measured over many
// copies parsed and kept alive, between two garbage collections; the
// ns/op is that of making one. A robots value is measured warm, as the
// core's TestKeptPerByte does: after warmQuestions questions for
// Googlebot, more than it takes to lay out a large set of rules, which
// Parse leaves to the questions that pay for it; temoto builds everything
// when it parses.
func BenchmarkSize(b *testing.B) {
	for _, f := range realFiles {
		body, _ := load(b, f.file)
		b.Run("lib=robots/file="+f.role, func(b *testing.B) {
			benchSize(b, body, func() any {
				r := robots.Parse(body)
				for range warmQuestions {
					sinkBool = r.Allowed("Googlebot", "/some/page.html")
				}
				return r
			})
		})
		b.Run("lib=temoto/file="+f.role, func(b *testing.B) {
			if _, err := robotstxt.FromBytes(body); err != nil {
				b.Skipf("temoto rejects the file: %v", err)
			}
			benchSize(b, body, func() any { r, _ := robotstxt.FromBytes(body); return r })
		})
	}
}

// benchSize reports the heap retained by the values parse returns.
func benchSize(b *testing.B, body []byte, parse func() any) {
	size := retained(body, parse)
	b.ReportAllocs()
	for b.Loop() {
		_ = parse()
	}
	b.ReportMetric(float64(size), "retained-B")
	b.ReportMetric(float64(size)/float64(len(body)), "x-input")
}

// retained returns the live heap that one value returned by parse holds,
// averaged over enough copies to make some 8 MB.
func retained(body []byte, parse func() any) uint64 {
	n := min(max((8<<20)/max(len(body), 1), 16), 4096)
	keep := make([]any, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		keep[i] = parse()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return (after.HeapAlloc - before.HeapAlloc) / uint64(n)
}

// warmQuestions is the number of questions after which a robots value is
// warm: a large set of rules is laid out on its 13th question of a short
// path (the package's Cost section).
const warmQuestions = 32
