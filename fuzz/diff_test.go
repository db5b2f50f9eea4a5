package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gorep/robots"
)

// skipRobotsTxt is the reason a question is not put to the oracle when our
// deliberate deviation decided it: "/robots.txt" is always allowed.
const skipRobotsTxt = "robots.txt"

func TestLimitsMatchTheLibrary(t *testing.T) {
	if maxSize != robots.MaxSize {
		t.Errorf("oracle maxSize = %d, robots.MaxSize = %d", maxSize, robots.MaxSize)
	}
}

// An outcome is the result of putting one question to both sides.
type outcome struct {
	ours, oracle bool
	skip         string // why the oracle was not asked, or "" if it was
	problem      string // an invariant of the robots package that failed
}

func (o outcome) disagree() bool { return o.skip == "" && o.ours != o.oracle }

// ask puts q about the file r (parsed by us) and o (prepared for the oracle)
// to both sides. o may be nil when the oracle excluded the file.
func ask(r *robots.Robots, o *Oracle, oerr error, q Query) outcome {
	var out outcome
	d, problem := decide(r, q)
	out.ours, out.problem = d.Allowed, problem
	if d.Reason == robots.ReasonRobotsTxt {
		if !d.Allowed || !strings.Contains(q.URL, "/robots.txt") {
			out.problem = fmt.Sprintf("Decide = %v for a URL that is not /robots.txt", d)
		}
		out.skip = skipRobotsTxt
		return out
	}
	err := oerr
	if err == nil {
		out.oracle, err = o.Allowed(q.URL, q.Agents...)
	}
	if err != nil {
		var ex *ExcludedError
		if !errors.As(err, &ex) {
			panic(err)
		}
		out.skip = ex.Reason
	}
	return out
}

// decide asks the robots package, checking that its ways of asking agree
// and turning a panic into a problem.
func decide(r *robots.Robots, q Query) (d robots.Decision, problem string) {
	defer func() {
		if v := recover(); v != nil {
			d, problem = robots.Decision{}, fmt.Sprintf("panic: %v", v)
		}
	}()
	if len(q.Agents) != 1 {
		return r.Group(q.Agents...).Decide(q.URL), ""
	}
	d = r.Decide(q.Agents[0], q.URL)
	if a := r.Allowed(q.Agents[0], q.URL); a != d.Allowed {
		problem = fmt.Sprintf("Allowed = %t but Decide = %v", a, d)
	}
	if g := r.Group(q.Agents[0]).Allowed(q.URL); g != d.Allowed {
		problem = fmt.Sprintf("Group(agent).Allowed = %t but Decide = %v", g, d)
	}
	return d, problem
}

// askFile parses body on both sides and asks q, catching a panic of Parse.
func askFile(body []byte, q Query) (out outcome) {
	defer func() {
		if v := recover(); v != nil {
			out = outcome{problem: fmt.Sprintf("panic in Parse: %v", v)}
		}
	}()
	o, err := NewOracle(body)
	return ask(robots.Parse(body), o, err, q)
}

// reportDisagreement minimises a disagreement and fails t with a reproducer.
func reportDisagreement(t testing.TB, origin string, body []byte, q Query) {
	t.Helper()
	fails := func(body []byte, q Query) bool {
		out := askFile(body, q)
		return out.disagree() || out.problem != ""
	}
	small, sq := Minimize(body, q, fails)
	out := askFile(small, sq)
	what := "disagreement with the oracle"
	switch {
	case strings.HasPrefix(out.problem, "panic"):
		what = "the robots package panicked"
	case out.problem != "":
		what = "an invariant of the robots package failed"
	}
	t.Errorf("%s: %s (minimised from %d to %d bytes)\n%s",
		origin, what, len(body), len(small), reproducer(small, sq, out))
}

// reproducer formats a case so that it can be pasted into a table test.
func reproducer(body []byte, q Query, out outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\trobots: %s\n", goString(body))
	fmt.Fprintf(&b, "\tagents: %q\n", q.Agents)
	fmt.Fprintf(&b, "\turl:    %q\n", q.URL)
	if strings.HasPrefix(out.problem, "panic") {
		fmt.Fprintf(&b, "\tours:   %s\n", out.problem)
	} else {
		fmt.Fprintf(&b, "\tours:   allowed=%t\n", out.ours)
	}
	if out.skip == "" {
		fmt.Fprintf(&b, "\toracle: allowed=%t\n", out.oracle)
	} else {
		fmt.Fprintf(&b, "\toracle: not asked (%s)\n", out.skip)
	}
	if out.problem != "" && !strings.HasPrefix(out.problem, "panic") {
		fmt.Fprintf(&b, "\tinvariant: %s\n", out.problem)
	}
	return b.String()
}

// goString quotes body as a Go expression, shortening runs of a repeated
// line or byte with strings.Repeat, so that reproducers with 16 KB lines or
// 500 KiB files stay readable.
func goString(body []byte) string {
	var parts []string
	lines := splitKeepingBreaks(body)
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && bytes.Equal(lines[j], lines[i]) {
			j++
		}
		if j-i >= 4 {
			parts = append(parts, fmt.Sprintf("strings.Repeat(%s, %d)", quoteRuns(lines[i]), j-i))
		} else {
			for _, l := range lines[i:j] {
				parts = append(parts, quoteRuns(l))
			}
		}
		i = j
	}
	if len(parts) == 0 {
		return `""`
	}
	return strings.Join(parts, " +\n\t\t")
}

// quoteRuns quotes s, writing runs of 64 or more of one byte with
// strings.Repeat.
func quoteRuns(s []byte) string {
	const run = 64
	var parts []string
	start := 0
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i >= run {
			if start < i {
				parts = append(parts, fmt.Sprintf("%q", s[start:i]))
			}
			parts = append(parts, fmt.Sprintf("strings.Repeat(%q, %d)", s[i:i+1], j-i))
			start = j
		}
		i = j
	}
	if start < len(s) || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%q", s[start:]))
	}
	return strings.Join(parts, " + ")
}
