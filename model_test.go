package robots

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The slow model (slowAllowed: the whole file read byte by byte for every
// question, as Google's reference parser reads it) and the tests that
// compare the package with it on real and generated files.

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

// slowAllowed is a slow, obviously correct model of Google's reference
// parser that the fast code must agree with. Like the reference, it reads the
// whole file for every question, byte by byte, keeps the best allow and
// disallow priority seen for the specific and the global group, and matches
// patterns by simulating every position of the path at once. It shares no
// code with the package.
func slowAllowed(body []byte, agents []string, url string) bool {
	path := slowPathOf(url)
	if path == "/robots.txt" {
		return true
	}
	if len(body) > 512000 {
		body = body[:512000]
	}
	m := slowMatcher{path: path, agents: agents}
	m.allowSpecific, m.disallowSpecific = -1, -1
	m.allowGlobal, m.disallowGlobal = -1, -1

	const maxLine = 2083*8 - 1
	var line []byte
	bom := 0
	lastCR := false
	for _, c := range body {
		if bom < 3 {
			if c == "\xEF\xBB\xBF"[bom] {
				bom++
				continue
			}
			bom = 3
		}
		if c != '\n' && c != '\r' {
			if len(line) < maxLine {
				line = append(line, c)
			}
			continue
		}
		if !(len(line) == 0 && lastCR && c == '\n') {
			m.line(line)
		}
		line = line[:0]
		lastCR = c == '\r'
	}
	m.line(line)
	return !m.disallowed()
}

type slowMatcher struct {
	path   string
	agents []string

	seenGlobal, seenSpecific, everSpecific, seenSeparator bool

	allowSpecific, disallowSpecific int
	allowGlobal, disallowGlobal     int
}

func (m *slowMatcher) disallowed() bool {
	if m.allowSpecific > 0 || m.disallowSpecific > 0 {
		return m.disallowSpecific > m.allowSpecific
	}
	if m.everSpecific {
		return false
	}
	if m.allowGlobal > 0 || m.disallowGlobal > 0 {
		return m.disallowGlobal > m.allowGlobal
	}
	return false
}

const slowSpace = " \t\n\v\f\r"

func (m *slowMatcher) line(b []byte) {
	s := string(b)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, slowSpace)
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		sep = strings.IndexAny(s, " \t")
		if sep < 0 {
			return
		}
		if strings.ContainsAny(strings.TrimLeft(s[sep:], " \t"), " \t") {
			return
		}
	}
	key := strings.Trim(s[:sep], slowSpace)
	value := strings.Trim(s[sep+1:], slowSpace)
	if key == "" {
		return
	}
	k := slowLower(key)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("user-agent", "useragent", "user agent"):
		m.userAgent(value)
	case has("allow"):
		m.rule(true, slowEscape(value))
	case has("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		m.rule(false, slowEscape(value))
	}
}

func (m *slowMatcher) userAgent(v string) {
	if m.seenSeparator {
		m.seenGlobal, m.seenSpecific, m.seenSeparator = false, false, false
	}
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || strings.IndexByte(slowSpace, v[1]) >= 0) {
		m.seenGlobal = true
		return
	}
	n := 0
	for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '-' || v[n] == '_') {
		n++
	}
	for _, a := range m.agents {
		if slowLower(a) == slowLower(v[:n]) {
			m.seenSpecific, m.everSpecific = true, true
			return
		}
	}
}

func (m *slowMatcher) rule(allow bool, pattern string) {
	if !m.seenGlobal && !m.seenSpecific {
		return
	}
	m.seenSeparator = true
	prio := -1
	if slowMatch(m.path, pattern) {
		prio = len(pattern)
	} else if allow {
		if i := strings.LastIndexByte(pattern, '/'); i >= 0 && strings.HasPrefix(pattern[i:], "/index.htm") {
			p := pattern[:i+1] + "$"
			if slowMatch(m.path, p) {
				prio = len(p)
			}
		}
	}
	if prio < 0 {
		return
	}
	best := &m.disallowGlobal
	switch {
	case allow && m.seenSpecific:
		best = &m.allowSpecific
	case allow:
		best = &m.allowGlobal
	case m.seenSpecific:
		best = &m.disallowSpecific
	}
	*best = max(*best, prio)
}

// slowMatch reports whether pattern matches path by keeping the set of path
// positions reachable after each pattern byte.
func slowMatch(path, pattern string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '$' && i == len(pattern)-1:
			return pos[len(pos)-1] == len(path)
		case c == '*':
			next := []int{}
			for p := pos[0]; p <= len(path); p++ {
				next = append(next, p)
			}
			pos = next
		default:
			next := []int{}
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					next = append(next, p+1)
				}
			}
			if len(next) == 0 {
				return false
			}
			pos = next
		}
	}
	return true
}

func slowLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func slowEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		hex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
		switch {
		case c == '%' && i+2 < len(s) && hex(s[i+1]) && hex(s[i+2]):
			b.WriteString(strings.ToUpper(s[i : i+3]))
			i += 2
		case c >= 0x80:
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// slowPathOf extracts the path, parameters and query of url as the
// reference's GetPathParamsQuery does, then reads it as the C string the
// reference's matcher takes (up to its first NUL).
func slowPathOf(url string) string {
	path, _, _ := strings.Cut(slowPathParamsQuery(url), "\x00")
	return path
}

// slowPathParamsQuery is the reference's GetPathParamsQuery, on the whole
// URL.
func slowPathParamsQuery(url string) string {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	early := strings.IndexAny(url[start:], "/?;")
	proto := strings.Index(url[start:], "://")
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += start + 3
	}
	i := strings.IndexAny(url[proto:], "/?;")
	if i < 0 {
		return "/"
	}
	pathStart := proto + i
	end := len(url)
	if hash := strings.IndexByte(url[start:], '#'); hash >= 0 {
		if start+hash < pathStart {
			return "/"
		}
		end = start + hash
	}
	if url[pathStart] != '/' {
		return "/" + url[pathStart:end]
	}
	return url[pathStart:end]
}

// bruteDecision is the deciding rule of Google's precedence, found by
// trying every rule of the crawler's records: the longest matching escaped
// pattern (an allow of ".../index.htm" also matching ".../" at the end,
// with the priority of ".../$"), allow on a tie, and among equal rules the
// earliest line. It reads the records of r as Records gives them, and
// shares no matching code with the package. ok is false when no rule
// decides.
func bruteDecision(r *Robots, agent, path string) (best Rule, ok bool) {
	return bruteGroupDecision(r, []string{agent}, path)
}

// bruteGroupDecision is bruteDecision for the group of several agents
// (Robots.Group): the records that name any of them, else those that name
// "*".
func bruteGroupDecision(r *Robots, agents []string, path string) (best Rule, ok bool) {
	var named, global []Record
	for _, rec := range r.Records() {
		for _, a := range rec.Agents {
			if a.Token == "*" {
				global = append(global, rec)
				break
			}
		}
		names := func(a Agent) bool {
			return a.Token != "*" && slices.ContainsFunc(agents, func(s string) bool { return strings.EqualFold(a.Token, s) })
		}
		if slices.ContainsFunc(rec.Agents, names) {
			named = append(named, rec)
		}
	}
	if len(named) == 0 {
		named = global
	}
	bestPrio := -1
	for _, rec := range named {
		for _, w := range rec.Rules {
			p := slowEscape(w.Pattern)
			prio := -1
			switch {
			case p == "":
			case slowMatch(path, p):
				prio = len(p)
			case w.Allow:
				if i := strings.LastIndexByte(p, '/'); i >= 0 && strings.HasPrefix(p[i:], "/index.htm") && slowMatch(path, p[:i+1]+"$") {
					prio = i + 2
				}
			}
			if prio < 0 {
				continue
			}
			if prio > bestPrio || prio == bestPrio && (w.Allow && !best.Allow || w.Allow == best.Allow && w.Line < best.Line) {
				best, bestPrio, ok = w, prio, true
			}
		}
	}
	return best, ok
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
