package robots

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
)

// benchFiles are real files of different sizes from testdata/realworld.
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
