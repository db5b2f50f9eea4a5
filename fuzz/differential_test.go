package fuzz

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/gorep/robots"
)

// The deterministic differential run: differentialFiles generated files
// (seeds differentialSeed, differentialSeed+1, ...), each with 3 to 8
// questions.
const (
	differentialSeed  = 0x5eed_2026
	differentialFiles = 100_000
)

var (
	files      = flag.Int("files", differentialFiles, "number of generated files TestDifferential checks")
	firstSeed  = flag.Uint64("seed", differentialSeed, "seed of the first file TestDifferential generates")
	writeSeeds = flag.Bool("write-seeds", false, "rewrite testdata/fuzz/FuzzDifferential from the generator")
)

// maxReported is the number of disagreements minimised and reported.
const maxReported = 5

// failure is a question on which the two sides disagreed.
type failure struct {
	seed uint64
	body []byte
	q    Query
}

// stats counts what the run compared.
type stats struct {
	files, questions, compared int
	excludedFiles              int
	skipped                    map[string]int
	reasons                    map[string]int // our Decision.Reason on compared questions
	disallowed                 int
}

func (s *stats) add(o *stats) {
	s.files += o.files
	s.questions += o.questions
	s.compared += o.compared
	s.excludedFiles += o.excludedFiles
	s.disallowed += o.disallowed
	for k, v := range o.skipped {
		s.skipped[k] += v
	}
	for k, v := range o.reasons {
		s.reasons[k] += v
	}
}

func newStats() *stats {
	return &stats{skipped: make(map[string]int), reasons: make(map[string]int)}
}

// TestDifferential compares the robots package with the oracle on generated
// files and URLs, from a fixed seed, and fails on any disagreement with a
// minimised reproducer.
func TestDifferential(t *testing.T) {
	n := *files
	if testing.Short() {
		n /= 10
	}
	workers := runtime.GOMAXPROCS(0)
	var (
		mu       sync.Mutex
		total    = newStats()
		failures []failure
		wg       sync.WaitGroup
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := newStats()
			var fs []failure
			for i := w; i < n; i += workers {
				seed := *firstSeed + uint64(i)
				c := Generate(seed)
				st.files++
				r, perr := parse(c.Robots)
				o, oerr := NewOracle(c.Robots)
				if oerr != nil {
					st.excludedFiles++
				}
				for _, q := range c.Queries {
					st.questions++
					out := outcome{problem: perr}
					if perr == "" {
						out = ask(r, o, oerr, q)
					}
					if out.problem != "" || out.disagree() {
						if len(fs) < maxReported && (len(fs) == 0 || fs[len(fs)-1].seed != seed) {
							fs = append(fs, failure{seed, c.Robots, q})
						}
						continue
					}
					if out.skip != "" {
						st.skipped[out.skip]++
						continue
					}
					st.compared++
					if !out.ours {
						st.disallowed++
					}
					st.reasons[reasonOf(r, q)]++
				}
			}
			mu.Lock()
			defer mu.Unlock()
			total.add(st)
			failures = append(failures, fs...)
		}()
	}
	wg.Wait()

	t.Logf("%d files (seeds %#x...), %d questions: %d compared with the oracle (%d disallowed), not asked: %s; files the oracle excluded: %d",
		total.files, *firstSeed, total.questions, total.compared, total.disallowed, formatCounts(total.skipped), total.excludedFiles)
	t.Logf("what decided the compared questions: %s", formatCounts(total.reasons))

	sort.Slice(failures, func(i, j int) bool { return failures[i].seed < failures[j].seed })
	for i, f := range failures {
		if i == maxReported {
			t.Errorf("... and more disagreements")
			break
		}
		reportDisagreement(t, fmt.Sprintf("seed %#x", f.seed), f.body, f.q)
	}
}

// parse parses body, turning a panic into a problem to report.
func parse(body []byte) (r *robots.Robots, problem string) {
	defer func() {
		if v := recover(); v != nil {
			problem = fmt.Sprintf("panic in Parse: %v", v)
		}
	}()
	return robots.Parse(body), ""
}

// reasonOf names what decided q for us, for the statistics.
func reasonOf(r *robots.Robots, q Query) string {
	if len(q.Agents) != 1 {
		return "several agents"
	}
	d := r.Decide(q.Agents[0], q.URL)
	if d.Global {
		return d.Reason.String() + " (*)"
	}
	return d.Reason.String()
}

// FuzzDifferential compares the robots package with the oracle on the
// fuzzer's file, agent and URL, and on questions derived from the file's own
// patterns. Its seeds are in testdata/fuzz/FuzzDifferential (written by
// go test -run TestWriteSeeds -write-seeds).
//
// Inputs over fuzzMaxBytes in all return at once: Go's fuzzer minimises
// every input that reaches new code, trying candidates in number quadratic
// in its size, for up to a minute by default, and an input of a few KiB kept
// the workers minimising instead of fuzzing. A larger input reaches no new
// code, so it is never minimised; TestDifferential and TestRealWorld ask the
// large files.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a\n"), "FooBot", "https://example.com/a")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if len(body)+len(agent)+len(url) > fuzzMaxBytes {
			return
		}
		r, problem := parse(body)
		if problem != "" {
			reportDisagreement(t, "fuzz", body, Query{Agents: []string{agent}, URL: url})
			return
		}
		o, oerr := NewOracle(body)
		h := fnv.New64a()
		h.Write(body)
		h.Write([]byte(agent + "\x00" + url))
		qs := append([]Query{{Agents: []string{agent}, URL: url}}, QueriesFor(body, h.Sum64(), 4)...)
		for _, q := range qs {
			if out := ask(r, o, oerr, q); out.problem != "" || out.disagree() {
				reportDisagreement(t, "fuzz", body, q)
				return
			}
		}
	})
}

// fuzzMaxBytes bounds the inputs FuzzDifferential reads (see there why),
// as in the fuzz targets of the robots package. An execution costs about
// 40 µs (the oracle and five questions), so that minimising an input of
// 256 bytes, some 40,000 candidates, held both workers for tens of seconds
// on a loaded machine (0 executions a second from 22 s to 65 s of a 60 s
// run, load average 20); 128 bytes, a quarter of the candidates, keep every
// 3-second interval over 1,000 executions a second (load average 14-17).
const fuzzMaxBytes = 128

// TestWriteSeeds writes the seed corpus of FuzzDifferential from the
// generator, when asked with -write-seeds.
func TestWriteSeeds(t *testing.T) {
	if !*writeSeeds {
		t.Skip("run with -write-seeds to rewrite testdata/fuzz/FuzzDifferential")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzDifferential")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, body []byte, agent, url string) {
		data := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\nstring(%s)\nstring(%s)\n",
			strconv.Quote(string(body)), strconv.Quote(agent), strconv.Quote(url))
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cornerSeeds {
		write("corner-"+c.name, []byte(c.robots), c.agent, c.url)
	}
	written := 0
	for seed := uint64(differentialSeed); written < 64; seed++ {
		c := Generate(seed)
		if len(c.Robots) > 64<<10 && written > 0 {
			continue // keep the corpus small, but one long line is welcome
		}
		write(fmt.Sprintf("gen-%x", seed), c.Robots, c.Queries[0].Agents[0], c.Queries[0].URL)
		written++
	}
}

// cornerSeeds are hand-written seeds for FuzzDifferential: the corners of
// NOTES.md, and the inputs on which grobotstxt needed normalising.
var cornerSeeds = []struct{ name, robots, agent, url string }{
	{"bom-partial", "\xEF\xBBUser-agent: *\nDisallow: /a\n", "FooBot", "https://example.com/a"},
	{"bom-broken", "\xEF\x11\xBFUser-agent: *\nDisallow: /a\n", "FooBot", "https://example.com/a"},
	{"cr-cr-lf", "User-agent: FooBot\r\r\nDisallow: /a\r\nAllow: /a/b\r", "FooBot", "/a/b"},
	{"no-colon", "user-agent FooBot\ndisallow /a\ndisallow /b /c\n", "FooBot", "http://x/b"},
	{"typos", "useragent: FooBot\ndissalow: /a\ndiaslow: /b\nDisallowed: /c\nsite-map: /s\n", "FooBot", "/b"},
	{"star-foo", "User-agent: * foo\nDisallow: /\nUser-agent: *foo\nAllow: /\n", "FooBot", "/x"},
	{"token-digits", "User-agent: MJ12bot\nDisallow: /\n", "MJ", "/x"},
	{"hex-digit-utf8", "User-agent: *\nDisallow: /x.php%66\xe6\x97/\n", "GPTBot", "/x.php%66%E6%97/"},
	{"hex-lower", "User-agent: *\nDisallow: /%2f\nAllow: /%2F$\n", "FooBot", "/%2F"},
	{"nbsp-edge", "User-agent: *\nDisallow: /a\u00a0\n\u00a0Disallow: /\n", "FooBot", "/a%C2%A0"},
	{"nul", "User-agent: *\nDisallow: /a\x00b\n", "FooBot", "/ac"},
	{"dollar-middle", "User-agent: *\nDisallow: /a$b\nDisallow: /*.php$\n", "FooBot", "/a$b"},
	{"index-html", "User-agent: *\nDisallow: /\nAllow: /d/index.html\n", "FooBot", "/d/"},
	{"tie", "User-agent: *\nDisallow: /a*\nAllow: /a$\n", "FooBot", "/a"},
	{"groups-merge", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nSitemap: /s\nUser-agent: a\nDisallow: /y\n", "A", "/y"},
	{"url-shapes", "User-agent: *\nDisallow: /p;q\n", "FooBot", "//u:p@example.com:8080/p;q?r#s"},
	{"robots-txt", "User-agent: *\nDisallow: /\n", "FooBot", "https://example.com/robots.txt"},
}
