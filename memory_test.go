package robots

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/ruleset"
)

// Memory: MemSize against the heap a parse keeps, and the bytes kept per
// byte of file on real files, on hostile shapes and for every agent.

// heapKept returns the bytes of heap that the values made by parse keep
// reachable, measured after a collection, and those values.
func heapKept(parse func() []*Robots) (int, []*Robots) {
	var before, after runtime.MemStats
	collect()
	runtime.ReadMemStats(&before)
	rs := parse()
	collect()
	runtime.ReadMemStats(&after)
	return int(after.HeapAlloc) - int(before.HeapAlloc), rs
}

// collect runs the garbage collector twice: a sync.Pool, such as Parse's
// scratch (parse.go, scratchPool), is emptied by the second collection after its last
// use, and it is not kept by the parsed files.
func collect() {
	runtime.GC()
	runtime.GC()
}

// memSizeTolerance is how far MemSize may be from the heap, as a fraction.
const memSizeTolerance = 0.10

// memSizeFloor is the least heap that memSizeTolerance is a fraction of.
const memSizeFloor = 512 << 10

// TestMemSize checks MemSize against the heap the parsed files keep, over
// the real-world corpus as a whole and over each hostile file.
func TestMemSize(t *testing.T) {
	inputs := map[string][][]byte{"realworld": realWorldBodies(t)}
	for name, body := range hostileFiles() {
		inputs["hostile/"+name] = [][]byte{[]byte(body)}
	}
	for name, bodies := range inputs {
		t.Run(name, func(t *testing.T) {
			heap, rs := heapKept(func() []*Robots {
				rs := make([]*Robots, len(bodies))
				for i, b := range bodies {
					rs[i] = Parse(b)
					warm(rs[i], "Googlebot", "/a")
					// MemSize makes the groups, which Allowed does not
					// on a file without a rule that may match.
					rs[i].MemSize()
				}
				return rs
			})
			size := heapsize.Slice[*Robots](len(rs))
			for _, r := range rs {
				size += r.MemSize()
			}
			// Under memSizeFloor (a file of blank lines keeps one struct),
			// the heap's own noise is larger than the tolerance.
			if diff := float64(size-heap) / float64(max(heap, memSizeFloor)); diff > memSizeTolerance || diff < -memSizeTolerance {
				t.Errorf("MemSize sums to %d bytes, the heap kept %d (%+.1f%%)", size, heap, 100*diff)
			}
			t.Logf("MemSize %d, heap %d", size, heap)
			runtime.KeepAlive(rs)
		})
	}
}

func TestMemSizeShared(t *testing.T) {
	tests := []struct {
		name string
		r    *Robots
	}{
		{"nil", nil},
		{"allow-all", AllowAll()},
		{"disallow-all", DisallowAll()},
	}
	for _, tt := range tests {
		if got := tt.r.MemSize(); got != 0 {
			t.Errorf("%s: MemSize() = %d, want 0", tt.name, got)
		}
	}
}

// keptPerByte bounds the bytes a parsed file keeps, once asked for
// Googlebot enough to lay out the sets that answer it (warm), per byte of input, as MemSize counts them (TestMemSize
// holds MemSize to the heap): over the real-world corpus summed, and for
// each hostile file. Issue 11's goal is 1 on the corpus and 1.5 on any
// file of 4 KiB or more; the files that reach it are held to it, the others
// to what the form achieves, with the reason. The body is not kept, only the
// values of the lines Parse uses (0.62 of the corpus); beside them a line
// costs about a byte and a half of line table (internal/lines/table.go), a rule an 8-byte
// compiled rule and, in a set of more than 32 rules laid out, a 2-byte
// link, or none when every link of the set fits in its rule; a
// record, a 4-byte set and a 4-byte start. A rule that can never decide
// (one that repeats a short rule of its set, or whose pattern starts with
// neither "/" nor "*") costs its line alone.
var keptPerByte = map[string]float64{
	"realworld":       1.0, // the goal: values 0.62, line table and index 0.05, compiled rules 0.17, Robots values 0.04, layouts, tokens and sets 0.11
	"wildcards-long":  1.5, // the goal: values are nearly the whole body
	"wildcards-raw":   1.5, // the goal: the same, patterns kept as written
	"wildcards-short": 1.5, // the goal
	"wildcards-rep":   1.5, // the goal: one 1 KB line repeated, a large set
	"agents-100k":     1.5, // the goal
	"agents-short":    1.5, // the goal
	"rules-100k":      1.5, // the goal
	"one-line":        1.5, // the goal
	"random":          1.5, // the goal
	"newlines":        1.5, // the goal
	"groups-small":    1.5, // the goal
	"one-agent-many":  1.5, // the goal
	"cr-only":         1.5, // the goal
	"extras-short":    1.5, // the goal: "a:b", two bytes of value and two of table
	"sitemaps-short":  1.5, // the goal
	"rules-same":      1.5, // the goal: one rule compiled, whatever the lines
	"rules-short":     1.5, // the goal: "allow:/ab", 8 bytes compiled a rule, its up link in it
	"invalid-utf8":    1.5, // the goal: patterns kept as written, escaped as they are matched
	"utf8-long":       1.5, // the goal: the same, with nothing else
	"utf8-lower":      1.5, // the goal: the same, with a lower-case "%ff" in each
	"utf8-short":      1.5, // the goal: the same, in a large set of short lines
	"lower-short":     1.5, // the goal: short lines of lower-case escapes
	"index-htm":       1.5, // the goal: one compiled rule a line, the directory "/a/$" of "/a/index.htm" filed in 3 bytes
}

// TestKeptPerByte checks the bytes a parsed file keeps per byte of input,
// once warm for Googlebot (its large sets laid out), against keptPerByte.
func TestKeptPerByte(t *testing.T) {
	kept := func(body []byte) int {
		r := Parse(body)
		warm(r, "Googlebot", "/some/page.html")
		return r.MemSize()
	}
	ratios := map[string]float64{}
	in, sum, largest, largestKept := 0, 0, 0, 0
	for _, b := range realWorldBodies(t) {
		n := kept(b)
		in += len(b)
		sum += n
		if len(b) > largest {
			largest, largestKept = len(b), n
		}
	}
	ratios["realworld"] = float64(sum) / float64(in)
	t.Logf("realworld: %.2f (%d of %d bytes); largest file (%d bytes) %.2f", ratios["realworld"], sum, in, largest, float64(largestKept)/float64(largest))
	for name, body := range hostileFiles() {
		ratios[name] = float64(kept([]byte(body))) / float64(min(len(body), MaxSize))
	}
	for name, got := range ratios {
		bound, ok := keptPerByte[name]
		if !ok {
			t.Errorf("%s: no bound in keptPerByte", name)
			continue
		}
		t.Logf("%s: %.2f bytes kept per input byte (bound %.1f)", name, got, bound)
		if got > bound {
			t.Errorf("%s: %.2f bytes kept per input byte, over %.1f", name, got, bound)
		}
	}
}

// TestLazyIndex checks that the index of a large set is built once, even
// when the questions that make it race, and that MemSize counts it from
// then on.
func TestLazyIndex(t *testing.T) {
	var body strings.Builder
	body.WriteString("user-agent: *\n")
	for i := range 100 {
		body.WriteString("disallow: /p" + strconv.Itoa(i) + "/\n")
	}
	r := Parse([]byte(body.String()))
	var g Group
	r.globalGroup(&g)
	set := &g.set
	before := r.MemSize()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range ruleset.LayoutQuestions/8 + 1 {
				if r.Allowed("a", "/p42/x") {
					t.Error("Allowed(/p42/x) = true, want false")
				}
			}
		}()
	}
	wg.Wait()
	x := set.Inspect()
	if !x.Laid {
		t.Fatalf("the set is not laid out after %d questions", 8*(ruleset.LayoutQuestions/8+1))
	}
	// x.Size: the layout and its rules, which hold the compiled rules.
	if got, want := r.MemSize(), before+x.Size; got != want {
		t.Errorf("MemSize() = %d once laid out, want %d (%d before, %d of the layout and its rules)", got, want, before, x.Size)
	}
	if allocs := testing.AllocsPerRun(10, func() { r.Allowed("a", "/p42/x") }); allocs != 0 {
		t.Errorf("Allowed allocates %v times once the index is built", allocs)
	}
}

// TestMemSizeLaidOut checks MemSize against the heap on files whose first
// questions lay out many large sets (split groups of large records, one
// head run, one anchor bucket), each asked twice from two goroutines, so
// that a layout counted twice, or a set laid out twice, shows.
func TestMemSizeLaidOut(t *testing.T) {
	for name, f := range adversarialLayouts() {
		t.Run(name, func(t *testing.T) {
			heap, rs := heapKept(func() []*Robots {
				r := Parse([]byte(f[0]))
				var wg sync.WaitGroup
				for range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range ruleset.LayoutQuestions {
							for _, agent := range []string{"Googlebot", "other", "Googlebot"} {
								r.Allowed(agent, f[1])
							}
						}
					}()
				}
				wg.Wait()
				return []*Robots{r}
			})
			size := rs[0].MemSize()
			if diff := float64(size-heap) / float64(max(heap, memSizeFloor)); diff > memSizeTolerance || diff < -memSizeTolerance {
				t.Errorf("MemSize is %d bytes, the heap kept %d (%+.1f%%)", size, heap, 100*diff)
			}
			runtime.KeepAlive(rs)
		})
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

// TestKeptPerByteShapes checks the bytes kept per input byte, warm for
// Googlebot, of keptShapes against issue 11's bound for any file of 4 KiB
// or more, as TestKeptPerByte does for hostileFiles; and warm for zz in
// records-split-lazy, whose group compiles every rule but the first
// record's again.
func TestKeptPerByteShapes(t *testing.T) {
	shapes := keptShapes()
	type warmed struct{ shape, agent string }
	cases := []warmed{{"records-split-lazy", "zz"}}
	for name := range shapes {
		cases = append(cases, warmed{name, "Googlebot"})
	}
	for _, c := range cases {
		t.Run(c.shape+"/"+c.agent, func(t *testing.T) {
			body := shapes[c.shape]
			r := Parse([]byte(body))
			warm(r, c.agent, "/some/page.html")
			checkKept(t, "shapes/"+c.shape+"/"+c.agent, r.MemSize(), len(body))
		})
	}
}

// TestKeptPerByteSmallFiles checks issue 11's bound of 1.5 bytes kept per
// input byte, warm for Googlebot, on files of 4 KiB to 64 KiB: the
// hostile files and keptShapes cut at the end of the first line past
// each size. TestKeptPerByte measures them at MaxSize only, where their
// lines are longer (letters(i) grows) and fixed costs weigh less.
func TestKeptPerByteSmallFiles(t *testing.T) {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for name, body := range files {
		for _, size := range []int{4 << 10, 16 << 10, 64 << 10} {
			if len(body) <= size {
				continue
			}
			cut := body[:size]
			if i := strings.IndexByte(body[size:], '\n'); i >= 0 {
				cut = body[:size+i+1]
			}
			t.Run(fmt.Sprintf("%s/%dKiB", name, size>>10), func(t *testing.T) {
				r := Parse([]byte(cut))
				warm(r, "Googlebot", "/some/page.html")
				checkKept(t, "small/"+name, r.MemSize(), len(cut))
			})
		}
	}
}

// keptGoal is issue 11's bound on the bytes kept per input byte of any
// file of 4 KiB or more.
const keptGoal = 1.5

// keptOverGoal holds what the shapes that do not meet keptGoal keep at
// most (measured, rounded up), so that they cannot grow unseen; issue 11
// stays open on them. None today.
var keptOverGoal = map[string]float64{}

// checkKept checks what a file of size bytes keeps against keptGoal, or,
// for the case named in keptOverGoal, against what it is known to keep.
func checkKept(t *testing.T, name string, kept, size int) {
	t.Helper()
	got := float64(kept) / float64(size)
	bound, over := keptOverGoal[name]
	if !over {
		bound = keptGoal
	}
	switch {
	case got > bound:
		t.Errorf("%.2f bytes kept per input byte, over %.2f", got, bound)
	case over && got > keptGoal:
		t.Logf("%.2f bytes kept per input byte: issue 11's goal of %.1f not met (held to %.2f)", got, keptGoal, bound)
	}
}

// keptEveryAgent is the bound on the bytes kept per input byte of any file
// of 4 KiB or more once every agent it names, and "*", has been asked
// warm: each rule line compiled at most mergeBudget times (resolve), and
// the layouts of the sets so compiled.
const keptEveryAgent = 3.0

// TestKeptEveryAgent checks keptEveryAgent on the hostile files and
// keptShapes, at MaxSize and cut at 4 KiB: a crawler that asks for every
// agent a file names must not make it keep more than a few times its size.
func TestKeptEveryAgent(t *testing.T) {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for name, body := range files {
		for _, size := range []int{4 << 10, MaxSize} {
			cut := body[:min(size, len(body))]
			if i := strings.IndexByte(body[len(cut):], '\n'); i >= 0 {
				cut = body[:len(cut)+i+1]
			}
			name := fmt.Sprintf("%s/%dKiB", name, size>>10)
			t.Run(name, func(t *testing.T) {
				r := Parse([]byte(cut))
				warmAll(r, "/some/page.html")
				got := float64(r.MemSize()) / float64(len(cut))
				if got > keptEveryAgent {
					t.Errorf("%.2f bytes kept per input byte once every agent is asked, over %.1f", got, keptEveryAgent)
				}
				t.Logf("kept %s %.2f", name, got)
			})
		}
	}
}

// warmAll warms r for every agent it names and for "*".
func warmAll(r *Robots, url string) {

	for _, g := range r.named {
		warm(r, g.token(r.text()), url)
	}
	warm(r, "", url)
}
