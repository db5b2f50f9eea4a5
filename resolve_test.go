package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// scannedFile returns a random file whose records are named by "*" or by
// "m", beside a token of their own (o<i>), so that the own sets of most
// are read from the line table (scanRecord); with defeat, each is also
// named by x and by one token of each of three families (p, q, s), so
// that the merge budget runs out and the groups of q and s are split,
// their records asked one by one, read from the line table. Its rules are
// patterns of wildcards, "$", escapes, index.htm pages, repeats, rules
// that never match, and, in some records, raw bytes, which are compiled.
func scannedFile(rng *rand.Rand, defeat bool) string {
	const alphabet = "xy/*$%CF1"
	word := func(n int) string { return randomWord(rng, alphabet, n) }
	pattern := func() string {
		switch rng.IntN(8) {
		case 0:
			return "/" + word(rng.IntN(3)) + "/index.htm" + word(rng.IntN(2))
		case 1:
			return "*" + word(1+rng.IntN(3))
		case 2:
			return ""
		case 3:
			return word(2) // may start with neither "/" nor "*"
		case 4:
			return "/x%2F" + word(rng.IntN(2))
		}
		return "/" + word(rng.IntN(5))
	}
	var b strings.Builder
	records := 2 + rng.IntN(40)
	for i := range records {
		if defeat {
			fmt.Fprintf(&b, "user-agent: x\nuser-agent: p%s\nuser-agent: q%s\nuser-agent: s%s\n",
				letters(i%7), letters(i%11), letters(i%13))
		}
		switch rng.IntN(3) {
		case 0:
			b.WriteString("user-agent: *\n")
		case 1:
			b.WriteString("user-agent: m\n")
		}
		fmt.Fprintf(&b, "user-agent: o%s\n", letters(i))
		n := rng.IntN(6)
		if rng.IntN(4) == 0 {
			n = ruleset.SmallSet - 2 + rng.IntN(scannedMax-ruleset.SmallSet+6)
		}
		raw := rng.IntN(8) == 0
		var pool []string
		for range n {
			p := pattern()
			if len(pool) > 0 && rng.IntN(5) == 0 {
				p = pool[rng.IntN(len(pool))]
			}
			if raw && rng.IntN(3) == 0 {
				p = "/x\xe9" + word(rng.IntN(2))
			}
			pool = append(pool, p)
			fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], p)
		}
	}
	return b.String()
}

// TestScannedOwnSets checks the own sets that read their rule lines from
// the line table (scanRecord), asked for their own token or as the split
// group's records, and the merged and split groups beside them, against
// bruteDecision and the slow model: the rule Decide quotes and Allowed,
// as parsed and with every large set laid out; and that the files have
// such sets, asked both ways.
func TestScannedOwnSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	const alphabet = "xy/*$%CF1"
	stats := map[string]int{}
	files := sample(80, 10)
	for file := range files {
		defeat := file%2 == 1
		body := scannedFile(rng, defeat)
		var paths []string
		for range 30 {
			p := "/" + strings.ReplaceAll(randomWord(rng, alphabet, rng.IntN(7)), "*", "b")
			if rng.IntN(4) == 0 {
				p += "/"
			}
			paths = append(paths, p)
		}
		agents := []string{"m", "x", "pb", "qc", "sd", "zz"}
		for i := range 6 {
			agents = append(agents, "o"+letters(i))
		}
		for how, r := range scannedAndLaidOut(body) {
			for _, agent := range agents {
				checkScanned(t, r, body, []string{agent}, paths)
			}
			checkScanned(t, r, body, []string{"oa", "ob", "m"}, paths)
			if t.Failed() {
				t.Fatalf("file %d, %s:\n%s", file, how, body)
			}
			countScanned(r, stats)
		}
	}
	t.Logf("%v", stats)
	for _, shape := range []string{"own", "split-rest", "compiled-raw", "compiled-large"} {
		if stats[shape] < files/4 {
			t.Errorf("only %d sets are %s: %v", stats[shape], shape, stats)
		}
	}
}

// checkScanned checks the decisions of r for agents on paths against
// bruteGroupDecision and the slow model.
func checkScanned(t *testing.T, r *Robots, body string, agents []string, paths []string) {
	t.Helper()
	g := r.Group(agents...)
	for _, path := range paths {
		want, ok := bruteGroupDecision(r, agents, slowPathOf(path))
		d := g.Decide(path)
		if len(agents) == 1 {
			d = r.Decide(agents[0], path)
			if got := r.Allowed(agents[0], path); got != d.Allowed {
				t.Errorf("Allowed(%q, %q) = %t, Decide says %t", agents[0], path, got, d.Allowed)
			}
		}
		slow := slowAllowed([]byte(body), agents, path)
		if ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule || d.Allowed != slow {
			t.Errorf("Decide(%q, %q) = %v, want %v (deciding: %t), slow model %t", agents, path, d, want, ok, slow)
		}
	}
}

// countScanned counts in stats the own sets of r that are read from the
// line table, asked for a token of their own ("own") or as the records of
// split groups ("split-rest"), and those of records named beside a group
// of several that are compiled nevertheless: of a raw rule
// ("compiled-raw") or more than scannedMax rule lines ("compiled-large").
func countScanned(r *Robots, stats map[string]int) {

	for _, ng := range r.named {
		var g Group
		r.refOrGlobal(ng.ref(), true, &g)
		switch {
		case g.recN == 1 && setLo(&g.set) < 0:
			stats["own"]++
		case g.recN == 1 && strings.HasPrefix(ng.token(r.text()), "o"):
			_, rl := r.table().RecordLines(int(g.recLo), nil, nil)
			if len(rl) > scannedMax {
				stats["compiled-large"]++
			} else if slicesAny(rl, func(l lines.Line) bool { return ruleset.EscapeChanges(l.Value(r.text())) }) {
				stats["compiled-raw"]++
			}
		case g.split:
			var s ruleset.Set
			for _, rec := range r.more.recs[g.restLo : g.restLo+g.restN] {
				if r.ownSet(rec, &s); setLo(&s) < 0 {
					stats["split-rest"]++
				}
			}
		}
	}
}

// slicesAny reports whether f holds for some line of lines.
func slicesAny(lines []lines.Line, f func(lines.Line) bool) bool {
	for _, l := range lines {
		if f(l) {
			return true
		}
	}
	return false
}

// TestMergeBudget checks that once every set of a file is compiled, it
// holds at most mergeBudget times the rules that compiling each record
// once makes, on the hostile files, keptShapes and files built to defeat
// merging, whose records are small and not raw.
func TestMergeBudget(t *testing.T) {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	var defeat strings.Builder
	for i := 0; defeat.Len() < MaxSize; i++ {
		fmt.Fprintf(&defeat, "user-agent: x\nuser-agent: p%s\nuser-agent: q%s\nuser-agent: s%s\ndisallow: /%s\n",
			letters(i%7), letters(i%11), letters(i%13), letters(i))
	}
	files["defeat"] = defeat.String()
	for name, body := range files {
		t.Run(name, func(t *testing.T) {
			r := Parse([]byte(body))
			once := 0
			for rec := range r.table().RecordCount() {
				_, rl := r.table().RecordLines(rec, nil, nil)
				var into Robots
				into.src.ShareText(&r.src)
				var s ruleset.Set
				var sc ruleset.Scratch
				ruleset.Compile(&s, &into.src, rl, &sc)
				once += len(into.src.Compiled())
			}
			got := compiledRules(r)
			t.Logf("%d compiled rules, %d of each record once", got, once)
			if got > mergeBudget*once {
				t.Errorf("%d compiled rules, over %d times the %d of each record once", got, mergeBudget, once)
			}
		})
	}
}

// TestGroupSharesGlobalRecords checks that a token named in exactly the
// records that name "*" shares the global group's merged rules rather than
// being split for want of merging budget, which the global group spent:
// its questions would cost a set per record.
func TestGroupSharesGlobalRecords(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "user-agent: *\nuser-agent: googlebot\ndisallow: /p%d\n\n", i)
	}
	r := Parse([]byte(b.String()))
	var g, global Group
	r.group("Googlebot", &g)
	r.globalGroup(&global)
	if g.split || g.set.Empty() || setLo(&g.set) != setLo(&global.set) || setLen(&g.set) != setLen(&global.set) {
		t.Errorf("Googlebot's group: split %t, set %+v; want the global group's set %+v", g.split, g.set, global.set)
	}
	if !g.named || global.named {
		t.Errorf("named: Googlebot's group %t, global %t; want true, false", g.named, global.named)
	}
	if d := r.Decide("Googlebot", "/p7"); d.Allowed || d.Global || d.Rule.Line != 31 {
		t.Errorf("Decide(Googlebot, /p7) = %+v, want disallowed by line 31, not global", d)
	}
}

// TestSplitGroupReusesMerged checks that a group the merge budget cannot
// merge asks the merged set of the largest group among its records and
// the rest one by one, not every record: Googlebot named beside "*" and
// Bingbot in every record and alone in one more, as Bingbot is, so that
// merging "*" and Bingbot leaves too little of the budget for Googlebot.
func TestSplitGroupReusesMerged(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "user-agent: *\nuser-agent: googlebot\nuser-agent: bingbot\ndisallow: /p%d\n\n", i)
	}
	b.WriteString("user-agent: googlebot\nallow: /p7\nuser-agent: bingbot\nallow: /p8\n")
	r := Parse([]byte(b.String()))
	var g, global Group
	r.group("Googlebot", &g)
	r.globalGroup(&global)
	if !g.split || g.set != global.set || g.restN != 1 {
		t.Fatalf("Googlebot's group: split %t, merged set of %d rules, %d records asked alone; want split, the global set, 1",
			g.split, setLen(&g.set), g.restN)
	}
	tests := []struct {
		path string
		want bool
		line int
	}{
		{"/p7", true, 1502},
		{"/p8", false, 44},
		{"/q", true, 0},
	}
	for _, tt := range tests {
		d := r.Decide("Googlebot", tt.path)
		if d.Allowed != tt.want || d.Rule.Line != tt.line {
			t.Errorf("Decide(Googlebot, %q) = %v, want allowed %t by line %d", tt.path, d, tt.want, tt.line)
		}
		if got := slowAllowed([]byte(b.String()), []string{"googlebot"}, tt.path); got != tt.want {
			t.Errorf("slow model: %q allowed %t, want %t", tt.path, got, tt.want)
		}
	}
}

// TestSplitAndMergedNoAllocs checks that the groups merged or split past
// the merge budget, and the own sets read from the line table, answer
// without allocating once warm.
func TestSplitAndMergedNoAllocs(t *testing.T) {
	var defeat strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&defeat, "user-agent: x\nuser-agent: p%s\nuser-agent: q%s\ndisallow: /%s\n",
			letters(i%7), letters(i%11), letters(i))
	}
	cases := []struct{ name, body, agent string }{
		{"records-split-lazy", keptShapes()["records-split-lazy"], "zz"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "bq"},
		{"records-own-and-global", keptShapes()["records-own-and-global"], "bq"},
		{"defeat-merged", defeat.String(), "pc"},
		{"defeat-split", defeat.String(), "qc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.body))
			g := r.Group(c.agent)
			if c.name == "defeat-split" && !g.split {
				t.Errorf("the group of %q is not split", c.agent)
			}
			for _, u := range []string{"/some/page.html", "/bq", "/"} {
				warm(r, c.agent, u)
				if n := testing.AllocsPerRun(50, func() { r.Allowed(c.agent, u) }); n != 0 {
					t.Errorf("Allowed(%q, %q) allocates %v times", c.agent, u, n)
				}
				if n := testing.AllocsPerRun(50, func() { g.Allowed(u) }); n != 0 {
					t.Errorf("Group.Allowed(%q) allocates %v times", u, n)
				}
			}
		})
	}
}

// TestSortNames checks the runs and order sortNames returns, on lists of
// tokens alike but for case, sharing their first 8 bytes, and named twice
// in one record: one run for each token, its records counted once, its
// first naming the first written of its first record, and the runs of most records first.
func TestSortNames(t *testing.T) {
	tokens := []string{"Googlebot", "googlebot-image", "GOOGLEBOT-News", "bingbot", "a", "AdsBot-Google",
		"googlebot", "Bingbot", "x", "adsbot-google-mobile", "zz", "Googlebot-Image"}
	for _, n := range []int{0, 1, 5, 13, 40} {
		t.Run(fmt.Sprint("names=", n), func(t *testing.T) {
			var text strings.Builder
			var names []naming
			recs := map[string]map[int32]bool{} // by lower-case token
			first := map[string]string{}        // of the first record, the first written
			firstRec := map[string]int32{}
			for i := range n {
				token := tokens[(i*7)%len(tokens)]
				rec := int32((i * 5) % 7)
				names = append(names, naming{uint32(text.Len()), uint32(len(token)), rec})
				text.WriteString(token)
				low := strings.ToLower(token)
				if recs[low] == nil {
					recs[low] = map[int32]bool{}
				}
				if _, ok := firstRec[low]; !ok || rec < firstRec[low] {
					firstRec[low], first[low] = rec, token
				}
				recs[low][rec] = true
			}
			s := text.String()
			runs, order := sortNames(s, names, &resolveScratch{})
			got, want := map[string]int{}, map[string]int{}
			for low, rs := range recs {
				want[low] = len(rs)
			}
			for k, rn := range runs {
				nm := names[rn.lo]
				token := s[nm.off : nm.off+nm.size]
				if token != first[strings.ToLower(token)] {
					t.Errorf("run %d starts with %q, want that of its first record first written, %q", k, token, first[strings.ToLower(token)])
				}
				got[strings.ToLower(token)] = int(rn.recs)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("records of each token (-want +got):\n%s", diff)
			}
			for k := 1; k < len(order); k++ {
				if a, b := runs[order[k-1]], runs[order[k]]; a.recs < b.recs || a.recs == b.recs && order[k-1] > order[k] {
					t.Errorf("order %v: runs not by records, most first, stably", order)
				}
			}
		})
	}
}
