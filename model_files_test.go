package robots

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The package held to the models of model_test.go on whole files: Allowed,
// Decide and Group against the slow model (checkAllowed), Decide against
// the brute-force precedence (checkDecisions), on the seeds and corpus of
// FuzzAllowed, generated files, and the files where the parser's and the
// engine's paths part; and the size of the sample these and the other
// exhaustive tests run (sample).

// sample returns full when the exhaustive tests run in full,
// ROBOTS_LONG=1 go test ./... (which .ci/run does), else short: the size
// of a test's sample, such as sample(120, 24) files. By default each runs
// a smaller sample of the same cases (for a seeded random test, the first
// files of the same sequence), so that go test ./... takes seconds. The
// variable is read here, as a test runs, where the test cache records it:
// a run with it set never answers from the cache of a run without.
func sample(full, short int) int {
	if os.Getenv("ROBOTS_LONG") == "1" {
		return full
	}
	return short
}

// A questions value says which questions checkAllowed asks of one file.
type questions struct {
	urls      int  // probes: URLs made from the file until there are more than this
	agents    int  // the agent asked, Googlebot, "*", then the file's own, up to this many
	slowBytes int  // the largest file the slow model is asked about
	slowEach  bool // the slow model answers every agent for every URL, not one agent per URL
	pastMax   bool // also check that lines past the first MaxSize bytes change nothing
}

var (
	// askFew keeps FuzzAllowed fast: Allowed and Decide for 4 agents × up
	// to 7 URLs, and the slow model for each URL once, about files of up
	// to 2 KiB. The slow model reads the whole file per question.
	askFew = questions{urls: 6, agents: 4, slowBytes: 2 << 10}
	// askAll is what FuzzAllowed asked of every input before it was made
	// fast: the slow model for up to 6 agents × 43 URLs about files of up
	// to 16 KiB, and a padded parse past MaxSize of every file under 4 KiB.
	askAll = questions{urls: 40, agents: 6, slowBytes: 16 << 10, slowEach: true, pastMax: true}
)

// checkAllowed checks, for the questions q asks about body, that Allowed
// agrees with the slow model, with Decide and with Group, and that the
// answers do not depend on the line-break convention or on anything past
// the first MaxSize bytes.
func checkAllowed(t *testing.T, body []byte, agent, url string, q questions) {
	t.Helper()
	r := Parse(body)
	urls := probes(r, url, q.urls)
	for i, u := range urls {
		if len(u) > 1024 {
			urls[i] = u[:1024]
		}
		if got, want := pathOf(urls[i]), slowPathOf(urls[i]); got != want {
			t.Fatalf("pathOf(%q) = %q, slow model says %q", urls[i], got, want)
		}
	}
	agents := []string{agent, "Googlebot", "*"}
	for _, rec := range r.Records() {
		for _, a := range rec.Agents {
			if len(agents) < q.agents {
				agents = append(agents, a.Token)
			}
		}
	}
	// The slow model reads the whole file per question and costs
	// len(path) × len(pattern) allocations per rule: keep it to inputs
	// it answers in milliseconds.
	slow := len(body) <= q.slowBytes
	for i, a := range agents {
		for j, u := range urls {
			got := r.Allowed(a, u)
			if d := r.Decide(a, u); d.Allowed != got {
				t.Fatalf("Decide(%q, %q) = %v, Allowed says %t", a, u, d, got)
			}
			// Without slowEach, URL j is put to the slow model for agent
			// j mod len(agents) only: the fuzzer's own URL for its agent.
			if !slow || !q.slowEach && i != j%len(agents) {
				continue
			}
			if want := slowAllowed(body, []string{a}, u); got != want {
				t.Fatalf("Allowed(%q, %q) = %t, slow model says %t", a, u, got, want)
			}
		}
	}
	if got, want := r.Group(agents...).Allowed(urls[0]), slowAllowed(body, agents, urls[0]); slow && got != want {
		t.Fatalf("Group(%q).Allowed(%q) = %t, slow model says %t", agents, urls[0], got, want)
	}
	checkLineBreaks(t, body, r, agent, urls)
	if q.pastMax && len(body) < 4096 {
		checkPastMaxSize(t, body, r, agent, urls)
	}
}

// checkLineBreaks checks that CRLF or CR line breaks instead of LF give the
// same answers.
func checkLineBreaks(t *testing.T, body []byte, r *Robots, agent string, urls []string) {
	t.Helper()
	if len(body) >= MaxSize/2 || bytes.ContainsRune(body, '\r') {
		return
	}
	crlf := Parse(bytes.ReplaceAll(body, []byte("\n"), []byte("\r\n")))
	cr := Parse(bytes.ReplaceAll(body, []byte("\n"), []byte("\r")))
	for _, u := range urls {
		want := r.Allowed(agent, u)
		if crlf.Allowed(agent, u) != want || cr.Allowed(agent, u) != want {
			t.Fatalf("Allowed(%q, %q) = %t with LF, differs with CRLF or CR", agent, u, want)
		}
	}
}

// checkPastMaxSize checks that a group for every agent that disallows
// everything, put past the first MaxSize bytes, changes no answer.
func checkPastMaxSize(t *testing.T, body []byte, r *Robots, agent string, urls []string) {
	t.Helper()
	padded := append(append(append([]byte(nil), body...), '\n'), bytes.Repeat([]byte("#"), MaxSize)...)
	padded = append(padded, "\nuser-agent: *\nuser-agent: "+agent+"\ndisallow: /\n"...)
	p := Parse(padded)
	for _, u := range urls {
		if p.Allowed(agent, u) != r.Allowed(agent, u) {
			t.Fatalf("Allowed(%q, %q) changed by lines past MaxSize", agent, u)
		}
	}
}

// checkDecisions compares Decide, for agent and each path, with
// bruteDecision: the verdict and the line quoted; of the file as parsed,
// whose large sets answer their first questions by scanning, and of the
// file with every large set laid out.
func checkDecisions(t *testing.T, body string, agent string, paths []string) {
	t.Helper()
	for how, r := range scannedAndLaidOut(body) {
		for _, path := range paths {
			want, ok := bruteDecision(r, agent, slowPathOf(path))
			d := r.Decide(agent, path)
			switch {
			case !ok && d.Reason == ReasonRule:
				t.Errorf("%s: Decide(%q, %q) = %v, want no deciding rule", how, agent, short(path), d)
			case ok && (d.Reason != ReasonRule || d.Rule != want):
				t.Errorf("%s: Decide(%q, %q) = %v, want the rule of line %d (%v)", how, agent, short(path), d, want.Line, want)
			}
			if ok && r.Allowed(agent, path) != want.Allow {
				t.Errorf("%s: Allowed(%q, %q) = %t, want %t", how, agent, short(path), !want.Allow, want.Allow)
			}
		}
	}
}

// TestAllowedMatchesSlowModel asks every question of askAll about the seeds
// of FuzzAllowed, its corpus in testdata/fuzz, and generated files: what
// FuzzAllowed checked of each input before it was made fast.
func TestAllowedMatchesSlowModel(t *testing.T) {
	for _, seed := range seedFiles(t, math.MaxInt) {
		t.Run("seed/"+filepath.Base(seed.Name), func(t *testing.T) {
			checkAllowed(t, seed.Body, "Googlebot", "https://example.com/a/b?c=d", askAll)
		})
	}
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzAllowed/*")
	for _, file := range corpus {
		t.Run("corpus/"+filepath.Base(file), func(t *testing.T) {
			body, agent, url := readAllowedEntry(t, file)
			checkAllowed(t, body, agent, url, askAll)
		})
	}
	rng := rand.New(rand.NewPCG(11, 5))
	for i := range sample(generatedFiles, 100) {
		body, agent, url := generateFile(rng)
		t.Run(fmt.Sprintf("generated/%d", i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("file: %q", body)
				}
			}()
			checkAllowed(t, body, agent, url, askAll)
		})
	}
}

// generatedFiles is how many files TestAllowedMatchesSlowModel generates.
const generatedFiles = 400

// readAllowedEntry reads a corpus file of FuzzAllowed: a body, an agent and
// a URL, each written as a Go literal on its own line.
func readAllowedEntry(t *testing.T, file string) (body []byte, agent, url string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var values []string
	for _, line := range lines[1:] {
		_, literal, _ := strings.Cut(line, "(")
		v, err := strconv.Unquote(strings.TrimSuffix(literal, ")"))
		if err != nil {
			t.Fatalf("%s: cannot read %q: %v", file, line, err)
		}
		values = append(values, v)
	}
	if lines[0] != "go test fuzz v1" || len(values) != 3 {
		t.Fatalf("%s is not a corpus file of FuzzAllowed", file)
	}
	return []byte(values[0]), values[1], values[2]
}

// Pieces of generated files: each is as likely as the others, so the
// oddities come up often.
var (
	genAgentKeys = []string{"user-agent", "User-Agent", "USER-AGENT", "useragent", "user agent", "User-agents"}
	genAgents    = []string{"*", "* foo", "*bot", "Googlebot", "googlebot-news", "Googlebot/2.1", "MJ12bot", "FooBot", "foo_bot", "",
		"Google bot", "G\xC3\xA9bot"}
	genRuleKeys = []string{"allow", "Allow", "disallow", "Disallow", "DISALLOW", "dissallow", "disalow", "Disallowed", "alow"}
	genPatterns = []string{"", "/", "*", "/*", "/$", "/a", "/a/", "/a*", "/a$", "/a*$", "/a*b", "/a*b$", "/*b", "/*.php$", "/a/b",
		"/a$b", "/a**", "/a/index.html", "/a/index.htm", "/a/index.html*", "/%7e", "/%7E", "/~", "/caf\xE9", "/caf\xC3\xA9",
		"/caf%c3%a9", "/a b", "fish", "/a\x00b", "/p;q", "/?q=", "/a?b=c", "/a#b", "/ /", "https://example.com/a",
		"/*\xC3\xA9$", "/%e2*b", "/\xE9/index.html", "/*A\xE9", "/a%E"}
	genOthers = []string{"", "", "# comment", "disallow /a", "disallow /a /b", "allow\t/a", "junk", ": /a",
		"sitemap: https://example.com/s.xml", "crawl-delay: 5", "disallow: /a # comment", "\xEF\xBB\xBFdisallow: /a"}
	genBreaks = []string{"\n", "\n", "\r\n", "\r"}
	genURLs   = []string{"", "/", "/a", "/a/", "/ab", "/a/b", "/a/index.html", "/b", "/a$b", "/x.php", "/x.php?y",
		"https://example.com/a/b?c=d#e", "//example.com/a", "example.com/a", "http://x.com;p/a", "/~", "/%7E",
		"/caf%C3%A9", "/caf\xC3\xA9", "/p;q", "/robots.txt", "a", "/x/caf%C3%A9", "/%E2b", "/%e2b", "/%E9/", "/%EA%E9",
		"/a%E9"}
)

// generateFile returns a small random file of groups made of the pieces
// above, with an agent and a URL to ask about it.
func generateFile(rng *rand.Rand) (body []byte, agent, url string) {
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString("\xEF\xBB\xBF")
	}
	br := pick(genBreaks)
	for range rng.IntN(5) {
		for range 1 + rng.IntN(2) {
			b.WriteString(pick(genAgentKeys) + ": " + pick(genAgents) + br)
		}
		for range rng.IntN(6) {
			switch rng.IntN(4) {
			case 0:
				b.WriteString(pick(genOthers))
			default:
				b.WriteString(pick(genRuleKeys) + ": " + pick(genPatterns))
			}
			if rng.IntN(10) == 0 {
				br = pick(genBreaks) // mixed line breaks
			}
			b.WriteString(br)
		}
	}
	if rng.IntN(20) == 0 {
		b.WriteString("disallow: /" + strings.Repeat("a", 2083*8) + br) // over the line limit
	}
	return []byte(b.String()), pick(genAgents), pick(genURLs)
}

// askParsed is what TestParsedMatchesSlowModel asks of each file: Allowed
// and Decide for 4 agents × up to 21 URLs, the slow model for each URL
// once, about files of up to 64 KiB.
var askParsed = questions{urls: 20, agents: 4, slowBytes: 64 << 10}

// askLong is what FuzzLongLines asks of each input: askFew, the slow
// model answering about files of a line over lines.MaxLineLen.
var askLong = questions{urls: 6, agents: 4, slowBytes: 2*maxShortInput + maxRepeat + 1}

// A modelFile is a file that TestParsedMatchesSlowModel asks about, with
// the agent it asks first.
type modelFile struct{ body, agent string }

// TestParsedMatchesSlowModel asks the slow model (checkAllowed) and the
// brute-force precedence (checkDecisions: Decide of each file as parsed and
// with its large sets laid out; both models on files of up to 64 KiB) about the files where the parser's and the
// engine's paths part: the edges of the lines Parse reads as it scans them
// (scanCommonCases, scanCases), the files whose records it collects to make
// the groups (tableFiles, oddTableFiles), and files whose laid-out sets
// keep marked rules (markedRuleFiles). It replaces three tests that held one
// of our paths to another: TestKeepLineMatchesHandle (Parse's loop and the
// line-by-line path), TestCollectedMatchesRecords (what the parser collects
// and the records decoded from the line table) and TestMarkedRules (a set's
// rules before and after its layout).
func TestParsedMatchesSlowModel(t *testing.T) {
	files := map[string]modelFile{}
	for name, body := range scanCommonCases() {
		files["scan-common/"+name] = modelFile{body, "a"}
	}
	for _, c := range scanCases {
		files["scan/"+c.name] = modelFile{c.body, "a"}
	}
	for name, body := range tableFiles(t) {
		files["table/"+name] = modelFile{body, "a"}
	}
	for name, body := range oddTableFiles() {
		files["odd/"+name] = modelFile{body, "a"}
	}
	for name, f := range markedRuleFiles(t) {
		files["marked/"+name] = f
	}
	for name, f := range files {
		t.Run(name, func(t *testing.T) {
			checkAllowed(t, []byte(f.body), f.agent, "/x", askParsed)
			if len(f.body) > askParsed.slowBytes {
				return // brute force reads every rule per question
			}
			var paths []string // of the probes, those a rule may decide
			for _, p := range probes(Parse([]byte(f.body)), "/x", askParsed.urls) {
				if p != "/robots.txt" {
					paths = append(paths, p[:min(len(p), 1024)])
				}
			}
			for _, agent := range []string{f.agent, "*", "Googlebot"} {
				checkDecisions(t, f.body, agent, paths)
			}
		})
	}
}

// markedRuleFiles are files whose largest set, laid out, keeps single rules
// marked in its table (unmark), raw or not, beside others: of TestMarkedRules.
func markedRuleFiles(t *testing.T) map[string]modelFile {
	shapes := keptShapes()
	files := map[string]modelFile{
		"raw-wildcard-short":     {shapes["raw-wildcard-short"][:16<<10], "googlebot"},
		"index-htm-wildcard-dir": {shapes["index-htm-wildcard-dir"][:16<<10], "googlebot"},
		"mixed": {fillMaxSize("user-agent: a\n", func(b *strings.Builder, i int) {
			w := letters(i)
			fmt.Fprintf(b, "allow: /x*%sab\ndisallow: *\xe9%s$\nallow: /*d%s*e\ndisallow: /p*%%41%sq\n", w, w, w, w)
		})[:8<<10], "a"},
	}
	for name, f := range files {
		r := Parse([]byte(f.body))
		layOutAll(r)
		if st := largeSet(r, f.agent).Inspect(); st.Marked == 0 {
			t.Fatalf("%s: no marked rule among the %d of the table", name, st.Float)
		}
	}
	return files
}
