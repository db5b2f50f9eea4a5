package robots

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
	"github.com/gorep/robots/internal/lines"
)

// The root package's benchmarks: Parse, Allowed and Decide on real files,
// the recorded verdicts, hostile files and layouts, split groups, scanning
// and preferences. The floors beside BenchmarkAllowed are in
// bench_floor_test.go.

// benchFiles are the real files the benchmarks run on (corpus.BenchFiles).
var benchFiles = corpus.BenchFiles

func readBench(b *testing.B, file string) []byte { return corpus.ReadBench(b, ".", file) }

// benchEachFile runs do over each file of benchFiles, as throughput.
func benchEachFile(b *testing.B, do func(body []byte)) {
	for _, f := range benchFiles {
		body := readBench(b, f.File)
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				do(body)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	benchEachFile(b, func(body []byte) { Parse(body) })
}

// benchURLs returns URLs made from the rules of r, half of them matching.
func benchURLs(r *Robots) []string {
	urls := []string{"https://example.com/", "https://example.com/some/page.html?q=1"}
	fill := strings.NewReplacer("*", "x", "$", "")
	for _, rec := range r.Records() {
		for _, rule := range rec.Rules {
			urls = append(urls, "https://example.com"+fill.Replace(rule.Pattern)+"z")
			if len(urls) == 20 {
				return urls
			}
		}
	}
	return urls
}

func BenchmarkAllowed(b *testing.B) {
	for _, f := range benchFiles {
		r := Parse(readBench(b, f.File))
		urls := benchURLs(r)
		b.Run("file="+f.Name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.Allowed("Googlebot", urls[i])
				if i++; i == len(urls) {
					i = 0
				}
			}
		})
	}
	// Shapes of rules, each in a group of 1,000 rules.
	shapes := []struct{ name, rule, url string }{
		{"prefix", "disallow: /dir%d/", "/dir500/page.html"},
		{"exact", "disallow: /dir%d/$", "/dir500/"},
		{"wildcard", "disallow: /*.ext%d$", "/a/b/c.ext500"},
		{"wildcard-miss", "disallow: /*.ext%d$", "/a/b/c.html"},
	}
	for _, s := range shapes {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		for i := range 1000 {
			body.WriteString(strings.Replace(s.rule, "%d", strconv.Itoa(i), 1) + "\n")
		}
		r := Parse([]byte(body.String()))
		b.Run("shape="+s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Allowed("Googlebot", s.url)
			}
		})
	}
	g := Parse(readBench(b, benchFiles[1].File)).Group("Googlebot")
	b.Run("group", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g.Allowed("/some/page.html?q=1")
		}
	})
}

// BenchmarkDecide asks Decide, which quotes the deciding rule and so looks
// up its line, of each file of benchFiles, on the URLs of BenchmarkAllowed.
func BenchmarkDecide(b *testing.B) {
	for _, f := range benchFiles {
		r := Parse(readBench(b, f.File))
		urls := benchURLs(r)
		b.Run("file="+f.Name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.Decide("Googlebot", urls[i%len(urls)])
				i++
			}
		})
	}
}

// BenchmarkHostile asks one question of each hostile file, for each
// hostile path; names are file=NAME/path=NAME so that benchstat can make a
// table of them (bench/run.sh does).
func BenchmarkHostile(b *testing.B) {
	for name, body := range hostileFiles() {
		r := Parse([]byte(body))
		for pname, path := range hostilePaths {
			b.Run("file="+name+"/path="+pname, func(b *testing.B) {
				for b.Loop() {
					r.Allowed("Googlebot", path)
				}
			})
		}
	}
}

// BenchmarkParseCorpus parses every file of the real-world corpus
// (op=parse), and asks a first question of each, as a crawler does after a
// fetch (op=parse+query); op=linescan is the floor beside them: a bare scan
// of the same bytes for line breaks, which any parser must at least do.
func BenchmarkParseCorpus(b *testing.B) {
	bodies := realWorldBodies(b)
	size := 0
	for _, body := range bodies {
		size += len(body)
	}
	ops := []struct {
		name string
		do   func(body []byte)
	}{
		{"linescan", func(body []byte) {
			for i := 0; i < len(body); {
				j := bytes.IndexByte(body[i:], '\n')
				if j < 0 {
					break
				}
				i += j + 1
			}
		}},
		{"parse", func(body []byte) { Parse(body) }},
		{"parse+query", func(body []byte) { Parse(body).Allowed("Googlebot", "/some/page.html") }},
	}
	for _, op := range ops {
		benchCorpus(b, "op="+op.name, bodies, size, op.do)
	}
}

// benchCorpus runs do on every body of a corpus of size bytes, as
// benchmark name. Beside the time, it reports the CPU time of the process
// a pass (cpu-ns/op: the garbage collector's included), where the system
// tells it: on a loaded machine, it varies less than the time.
func benchCorpus[T any](b *testing.B, name string, bodies []T, size int, do func(T)) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			for _, body := range bodies {
				do(body)
			}
		}
		if cpu > 0 {
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		}
	})
}

// BenchmarkGroupAgents resolves the group of several agents on a file of
// thousands of small groups, each naming its own agent.
func BenchmarkGroupAgents(b *testing.B) {
	r := Parse([]byte(hostileFiles()["groups-small"]))
	for _, n := range []int{2, 10, 1000} {
		agents := make([]string, n)
		for i := range agents {
			agents[i] = "b" + letters(i*7)
		}
		b.Run("agents="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Group(agents...)
			}
		})
	}
}

func BenchmarkPreferences(b *testing.B) {
	for _, bc := range []struct{ name, body, url string }{
		{"signals-only", contentSignalsExample, "/page"},
		{"attach-example", attachExample, "/ai-ok/page"},
		// 15,001 rules, 435 KB: more rules than a robots.txt of MaxSize
		// bytes holds as groups.
		{"rules-15001", "user-agent: *\n" + strings.Repeat("content-usage: /a train-ai=y\n", 15000) +
			"content-usage: /a train-ai=n\n", "/a"},
		// As many rules as MaxSize bytes hold, each the shortest there is.
		{"rules-max", "user-agent: *\n" + strings.Repeat("content-usage:/\n", (MaxSize-14)/16), "/a"},
		// As many distinct paths as MaxSize bytes hold.
		{"paths-max", "user-agent: *\n" + distinctPaths(MaxSize-14), "/a"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := Parse([]byte(bc.body))
			b.SetBytes(int64(len(bc.body)))
			b.ReportAllocs()
			for b.Loop() {
				r.Preferences("ExampleBot", bc.url)
			}
		})
	}
}

// BenchmarkScanCorpus runs the parser's pass over the lines alone on every
// file of the real-world corpus. op=scan is all of Parse but its pooled
// scratch space: the line scan, the directives and the text they keep,
// and the groups made of them. op=lines only cuts lines and splits
// directives, and keeps nothing.
func BenchmarkScanCorpus(b *testing.B) {
	var bodies []string
	size := 0
	for _, body := range realWorldBodies(b) {
		bodies = append(bodies, string(body))
		size += len(body)
	}
	ops := []struct {
		name string
		do   func(body string)
	}{
		{"scan", func(body string) {
			p := parser{src: body, r: &Robots{}}
			p.parse()
		}},
		{"lines", func(body string) {
			ls := lines.NewScanner(lines.SkipBOM(body))
			for ls.Next() {
				lines.SplitDirective(ls.Content())
			}
		}},
	}
	for _, op := range ops {
		benchCorpus(b, "op="+op.name, bodies, size, op.do)
	}
}

// BenchmarkAdversarialLayouts measures a warm question, a parse, and a
// parse with its first question (which lays out the large sets it asks),
// on adversarialLayouts.
func BenchmarkAdversarialLayouts(b *testing.B) {
	for name, f := range adversarialLayouts() {
		body, path := []byte(f[0]), f[1]
		b.Run(name+"/query", func(b *testing.B) {
			r := Parse(body)
			if !r.Allowed("Googlebot", path) {
				b.Fatalf("Allowed(%q) = false: the path must match no rule", short(path))
			}
			b.ReportAllocs()
			for b.Loop() {
				r.Allowed("Googlebot", path)
			}
		})
		b.Run(name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(body)
			}
		})
		b.Run(name+"/parse+query", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(body).Allowed("Googlebot", path)
			}
		})
	}
}

// BenchmarkSplitGroups asks, warm, the groups that a merge budget of one
// compile a rule line split (resolve.go: split), whose sets were asked
// one by one, and which that of mergeBudget merges: zz in
// records-split-lazy (named in all records but the first, beside
// googlebot, which is named in all) and a b-token of the hostile
// one-agent-many; googlebot beside them. And the own sets that read their
// rule lines from the line table (scanRecord): a b-token of
// records-own-and-global, of 32 rule lines, and of scannedMax. Issue 11
// asks for at most 1 µs a query on every hostile shape.
func BenchmarkSplitGroups(b *testing.B) {
	cases := []struct{ file, body, agent string }{
		{"records-split-lazy", keptShapes()["records-split-lazy"], "zz"},
		{"records-split-lazy", keptShapes()["records-split-lazy"], "googlebot"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "bq"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "googlebot"},
		{"records-own-and-global", keptShapes()["records-own-and-global"], "bq"},
		{"records-own64-and-global", recordsOf(scannedMax, ownAndGlobal), "bq"},
	}
	for _, c := range cases {
		r := Parse([]byte(c.body))
		warm(r, c.agent, "/some/page.html")
		b.Run("file="+c.file+"/agent="+c.agent, func(b *testing.B) {
			for b.Loop() {
				r.Allowed(c.agent, "/some/page.html")
			}
		})
	}
}

// BenchmarkVerdicts is a warm question over Google's recorded questions:
// every file of shared/testdata/realworld-verdicts.jsonl (50,820 questions
// on 1,694 real files, beside the repository) parsed and asked once
// beforehand, then each question in turn, one an op. Without ../shared it
// uses the sample in testdata.
func BenchmarkVerdicts(b *testing.B) {
	list, dir := "../shared/testdata/realworld-verdicts.jsonl", "../shared/testdata/realworld"
	if _, err := os.Stat(list); err != nil {
		list, dir = "testdata/realworld-verdicts.jsonl", "testdata/realworld"
	}
	f, err := os.Open(list)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	type question struct {
		r          *Robots
		agent, url string
	}
	var qs []question
	parsed := map[string]*Robots{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			b.Fatal(err)
		}
		r, ok := parsed[v.RobotsFile]
		if !ok {
			body, err := os.ReadFile(filepath.Join(dir, v.RobotsFile))
			if err != nil {
				b.Fatal(err)
			}
			r = Parse(body)
			parsed[v.RobotsFile] = r
		}
		qs = append(qs, question{r, v.Agent, v.URL})
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	for _, q := range qs {
		q.r.Allowed(q.agent, q.url)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := &qs[i%len(qs)]
		q.r.Allowed(q.agent, q.url)
	}
}
