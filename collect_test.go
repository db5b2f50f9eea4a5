package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// tableFiles are the files these tests read: the hostile files,
// the kept shapes, a sample of the real-world corpus, and files of small
// records of repeated, index.htm and raw rules.
func tableFiles(t *testing.T) map[string]string {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for i, body := range realWorldBodies(t) {
		if i%7 == 0 {
			files[fmt.Sprintf("realworld-%d", i)] = string(body)
		}
	}
	rng := rand.New(rand.NewPCG(5, 8))
	dirs := []string{"/", "/a/", "/a$/", "/*/", "/\xe9/", "/%e9/", "/%E9/", "//"}
	pattern := func() string {
		d := dirs[rng.IntN(len(dirs))]
		switch rng.IntN(5) {
		case 0:
			return d + "index.htm" + []string{"", "l", "l$", "\xe9", "x"}[rng.IntN(5)]
		case 1:
			return d + "$"
		case 2:
			return randomWord(rng, "ab/", rng.IntN(3)) // short: repeats, or never compiled
		case 3:
			return d + randomWord(rng, "ab*$\xe9", rng.IntN(3))
		}
		return d
	}
	for file := range 60 {
		var b strings.Builder
		for rec := range 1 + rng.IntN(8) {
			fmt.Fprintf(&b, "user-agent: %s\n", letters(rec%4))
			for range rng.IntN(ruleset.SmallSet + 4) {
				fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], pattern())
			}
		}
		files[fmt.Sprintf("random-%d", file)] = b.String()
	}
	return files
}

// TestMayMatchAtParse checks Robots.mayMatch, which Parse sets from the
// rule lines it reads, against what the groups made of them hold: a
// compiled rule, or a set left to its questions to compile.
func TestMayMatchAtParse(t *testing.T) {
	files := tableFiles(t)
	for name, body := range map[string]string{
		"empty-disallow":     "user-agent: *\ndisallow:\n",
		"rule-before-agents": "disallow: /x\n",
		"no-slash":           "user-agent: a\nallow: x\ndisallow: ?y\n",
		"star":               "user-agent: a\nallow: *x\n",
		"slash":              "user-agent: a\ndisallow: /\n",
	} {
		files[name] = body
	}
	for name, body := range files {
		r := Parse([]byte(body))
		got := r.mayMatch

		if want := len(r.src.Compiled()) > 0 || len(largeSets(r)) > 0; got != want {
			t.Errorf("%s: mayMatch %t at Parse, want %t", name, got, want)
		}
	}
}

// TestFirstQuestionsConcurrent asks fresh files from several goroutines
// at once, so that their first questions race to compile and lay out
// their large sets (run with -race by CI), and checks every
// answer against those of the same file asked from one goroutine.
func TestFirstQuestionsConcurrent(t *testing.T) {
	paths := []string{"/", "/a", "/a/", "/index.html", "/search?q=1", "/wp-admin/x.php", "/\xe9/"}
	n := 0
	for name, body := range tableFiles(t) {
		if n++; n%3 != 0 && !strings.HasPrefix(name, "random") {
			continue
		}
		serial := Parse([]byte(body))
		agents := []string{"googlebot", "*", "a", "b", "bingbot"}

		for _, g := range serial.named[:min(len(serial.named), 6)] {
			agents = append(agents, g.token(serial.text()))
		}
		want := map[string]bool{}
		for _, a := range agents {
			for _, p := range paths {
				want[a+" "+p] = serial.Allowed(a, p)
			}
		}
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		var wrong atomic.Int32
		for w := range 4 {
			wg.Go(func() {
				for k := range agents {
					a := agents[(k+w)%len(agents)]
					for _, p := range paths {
						if r.Allowed(a, p) != want[a+" "+p] {
							wrong.Add(1)
						}
					}
				}
			})
		}
		wg.Wait()
		if wrong.Load() > 0 {
			t.Errorf("%s: %d answers differ from those asked in turn", name, wrong.Load())
		}
	}
}

// TestMemSizeAtParse checks that Parse counts the groups it makes: MemSize
// of a file no question has asked is that of one asked a question that
// compiles nothing.
func TestMemSizeAtParse(t *testing.T) {
	for name, body := range map[string]string{
		"agents-only": "user-agent: a\nuser-agent: b\n\nuser-agent: c\n",
		"small":       "user-agent: *\ndisallow: /a\nallow: /a/b\n\nuser-agent: x\ndisallow: /\n",
		"merged":      "user-agent: x\ndisallow: /a\n\nuser-agent: x\nuser-agent: y\nallow: /b\n",
	} {
		asked := Parse([]byte(body))
		asked.Decide("x", "/")
		parsed := Parse([]byte(body))
		if got, want := parsed.MemSize(), asked.MemSize(); got != want || got <= heapsize.Object[Robots]() {
			t.Errorf("%s: MemSize() = %d before any question, want %d, as once asked", name, got, want)
		}
	}
}

// oddTableFiles are random files of the shapes the parser must collect:
// user-agent values kept once for several lines (agentText), short,
// medium and long values, records of no rules, rules and extras before
// the first user-agent line and between agent lines, "*" among tokens,
// and enough lines to pass several marks.
func oddTableFiles() map[string]string {
	files := map[string]string{}
	rng := rand.New(rand.NewPCG(9, 1))
	agents := []string{"a", "b", "*", "* x", "Googlebot/2.1", "123", "", strings.Repeat("c", 40),
		strings.Repeat("d", 300), strings.Repeat("e", 20000)}
	for file := range 200 {
		var b strings.Builder
		for range rng.IntN(3) {
			fmt.Fprintf(&b, "disallow: /pre%d\nsitemap: /s\nfoo: bar\n", rng.IntN(9))
		}
		for range 1 + rng.IntN(80) {
			switch rng.IntN(9) {
			case 0, 1, 2:
				fmt.Fprintf(&b, "user-agent: %s\n", agents[rng.IntN(len(agents))])
			case 3, 4, 5:
				n := []int{0, 3, 28, 29, 30, 200, 286, 300}[rng.IntN(8)]
				fmt.Fprintf(&b, "%s: /%s\n", []string{"allow", "disallow"}[rng.IntN(2)], strings.Repeat("x", n))
			case 6:
				b.WriteString("\n\n# c\n")
			case 7:
				fmt.Fprintf(&b, "crawl-delay: %d\n", rng.IntN(9))
			default:
				fmt.Fprintf(&b, "disallow: %s\n", []string{"", "x", "*", "$", "/"}[rng.IntN(5)])
			}
		}
		files[fmt.Sprintf("odd-%d", file)] = b.String()
	}
	return files
}

// A tableNaming is a product token and its record, as the parser collects
// them, by value.
type tableNaming struct {
	Token string
	Rec   int32
}

// tableRead is what the parser collects for resolve.
type tableRead struct {
	Rules         []lines.Line
	First, Global []int32
	Names         []tableNaming
}

// equal reports whether t and u hold the same values, a nil slice equal
// to an empty one: what cmp.Equal with cmpopts.EquateEmpty says, without
// its reflection, which took most of TestCollectedMatchesRecords' time.
func (t tableRead) equal(u tableRead) bool {
	return slices.Equal(t.Rules, u.Rules) && slices.Equal(t.First, u.First) &&
		slices.Equal(t.Global, u.Global) && slices.Equal(t.Names, u.Names)
}

// recordsRead returns what the parser should collect for r, made from
// recordLines, which decodes each entry from the line table, the tokens
// sorted as resolve sorts them (stably, by token ignoring case, then by
// record).
func recordsRead(r *Robots) tableRead {
	var want tableRead
	var agents []lines.Line
	for i := range r.table().RecordCount() {
		want.First = append(want.First, int32(len(want.Rules)))
		agents, want.Rules = r.table().RecordLines(i, agents[:0], want.Rules)
		for _, a := range agents {
			switch token := lines.AgentToken(a.Value(r.text())); {
			case token != "*":
				want.Names = append(want.Names, tableNaming{token, int32(i)})
			case len(want.Global) == 0 || want.Global[len(want.Global)-1] != int32(i):
				want.Global = append(want.Global, int32(i))
			}
		}
	}
	slices.SortStableFunc(want.Names, func(a, b tableNaming) int {
		if c := strings.Compare(strings.ToLower(a.Token), strings.ToLower(b.Token)); c != 0 {
			return c
		}
		return int(a.Rec - b.Rec)
	})
	return want
}

// TestCollectedMatchesRecords checks what the parser collects to make the
// groups against the records as recordLines decodes them from the line
// table: the two ways of reading a file agree.
func TestCollectedMatchesRecords(t *testing.T) {
	files := tableFiles(t)
	for name, body := range oddTableFiles() {
		files[name] = body
	}
	for name, body := range files {
		p := parser{src: body, r: &Robots{}}
		p.parse()
		r, rs := p.r, p.rs
		got := tableRead{Rules: rs.rules, First: rs.first, Global: rs.global}
		for _, n := range rs.names {
			got.Names = append(got.Names, tableNaming{r.text()[n.off : n.off+n.size], n.rec})
		}
		if want := recordsRead(r); !got.equal(want) {
			t.Errorf("%s: the parser's records disagree with recordLines (-want +got):\n%s", name, cmp.Diff(want, got, cmpopts.EquateEmpty()))
		}
	}
}

// TestZeroRobotsConcurrent asks the zero Robots, an empty file, every
// question from several goroutines at once (run with -race by CI).
func TestZeroRobotsConcurrent(t *testing.T) {
	var r Robots
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			r.MemSize()
			r.Allowed("a", "/")
			r.Decide("a", "/")
			r.Group("a", "b").Allowed("/")
			r.Group().Allowed("/")
			r.GroupExtras("a", "")
			r.Preferences("a", "/")
			r.CrawlDelay("a")
		})
	}
	wg.Wait()
	want := Decision{Allowed: true, Reason: ReasonNoGroup}
	if diff := cmp.Diff(want, r.Decide("a", "/x")); diff != "" {
		t.Errorf("zero Robots: Decide (-want +got):\n%s", diff)
	}
	if got := r.MemSize(); got != 0 {
		t.Errorf("zero Robots: MemSize() = %d, want 0", got)
	}
}

// TestFirstEntriesConcurrent races the entry points (MemSize, Allowed,
// Decide, Group of several agents, GroupExtras) on
// fresh files, with questions that compile and lay out large sets (run
// with -race by CI), and checks Decide and the union's answers against
// those of the file asked in turn.
func TestFirstEntriesConcurrent(t *testing.T) {
	ask := func(r *Robots) string {
		return fmt.Sprint(r.Decide("a", "/a/x"), r.Group("a", "b", "googlebot").Decide("/a/x"), r.GroupExtras("a", ""))
	}
	n := 0
	for name, body := range tableFiles(t) {
		if n++; n%3 != 0 {
			continue
		}
		want := ask(Parse([]byte(body)))
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		var got string
		wg.Go(func() { r.MemSize() })
		wg.Go(func() { got = ask(r) })
		wg.Go(func() {
			for range ruleset.LayoutQuestions + 2 {
				r.Allowed("a", "/a/x")
				r.Allowed("zz", "/")
				r.Group("googlebot", "*", "a").Allowed("/a/x")
			}
		})
		wg.Wait()
		if got != want {
			t.Errorf("%s: asked concurrently %s, want %s", name, got, want)
		}
	}
}
