package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/audit"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/lint"
)

// auditUsage explains "robotstxt audit", its output and its exit status.
const auditUsage = `usage: robotstxt audit [-json] FILE|-|URL

Says what a robots.txt file does to the known AI crawlers, the AI control
tokens and the major search crawlers: whether each may fetch "/" and the
paths the file's own rules name, which line decides, and the usage
preferences (Content-Signal, Content-Usage) that apply to it. Crawlers with
the same answers are listed together. A control token (Google-Extended,
Applebot-Extended) is not a crawler: its operator's main crawler fetches,
and a token disallowed from "/" keeps the content from the use it controls.
A URL is fetched (the robots.txt that governs it).

Exit status: 0 when the audit ran; 1 when the robots.txt could not be
fetched because the site erred or could not be reached (everything is then
disallowed, and the audit says so); 2 on a usage or input error. A file that
is no robots.txt at all (binary, UTF-16, an HTML page; check calls it an
error) is audited as Google reads it, with a warning, and does not change
the exit status.
`

// An auditReport is the output of "robotstxt audit -json".
type auditReport struct {
	File    string `json:"file"`
	Status  int    `json:"status,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// Warnings say that the file is no robots.txt file at all, as in
	// "robotstxt test -json".
	Warnings []string `json:"warnings,omitempty"`
	// TDMRep is the site's tdmrep.json, for a URL (audit_tdmrep.go).
	TDMRep *tdmrepAudit `json:"tdmrep,omitempty"`
	audit.Report
}

// runAudit runs "robotstxt audit".
func runAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the audit as JSON")
	fs.Usage = func() {
		fmt.Fprint(stderr, auditUsage+"\n")
		fs.PrintDefaults()
	}
	src, code := loadOne(fs, args, stdin)
	if src == nil {
		return code
	}
	report := auditReport{File: src.name, Warnings: warnNotRobots(src, stderr), Report: audit.Run(src.robots)}
	status := 0
	if res := src.fetched; res != nil {
		report.Status, report.Outcome = res.StatusCode, res.Outcome.String()
		if res.Outcome == fetch.Unreachable {
			status = 1
		}
		report.TDMRep = auditTDMRep(src)
	}
	if *asJSON {
		return printJSON(report, status, stdout, stderr)
	}
	printAudit(stdout, src, report.Report, report.TDMRep)
	return status
}

// printAudit writes the audit as text: a header, then the crawlers with the
// same answers together, AI crawlers first.
func printAudit(w io.Writer, src *source, rep audit.Report, tdm *tdmrepAudit) {
	fmt.Fprintf(w, "# %s", src.name)
	if src.fetched != nil {
		fmt.Fprintf(w, " (%s)", describe(src.fetched))
	}
	fmt.Fprintf(w, "\n# paths: %s\n# %s\n", strings.Join(rep.Paths, " "), rep.Summary.Text)
	for _, ai := range []bool{true, false} {
		for _, group := range sameAnswers(rep.Crawlers, ai) {
			fmt.Fprintf(w, "\n%s\n", crawlerNames(group))
			printAnswers(w, group[0])
		}
	}
	if tdm != nil {
		fmt.Fprintln(w)
		printTDMRep(w, tdm)
	}
}

// sameAnswers returns the crawlers whose AI flag is ai, those with the same
// answers together, in table order of the first of each.
func sameAnswers(results []audit.Result, ai bool) [][]audit.Result {
	var groups [][]audit.Result
	index := map[string]int{}
	for _, r := range results {
		if r.AI != ai {
			continue
		}
		b, _ := json.Marshal(struct {
			V []audit.Verdict
			S robots.ContentSignals
		}{r.Verdicts, r.Signals})
		if i, ok := index[string(b)]; ok {
			groups[i] = append(groups[i], r)
			continue
		}
		index[string(b)] = len(groups)
		groups = append(groups, []audit.Result{r})
	}
	return groups
}

// crawlerNames lists the crawlers of a group with what to know of each:
// "GPTBot (OpenAI, training), Google-Extended (Google, training, control
// token), ChatGPT-User (OpenAI, user-fetch, may ignore robots.txt)".
func crawlerNames(group []audit.Result) string {
	kind := "AI crawlers"
	if !group[0].AI {
		kind = "search crawlers"
	}
	names := make([]string, len(group))
	for i, r := range group {
		notes := []string{r.Operator, r.Purpose.String()}
		if r.Control {
			notes = append(notes, "control token")
		}
		if r.Retired {
			notes = append(notes, "retired")
		}
		if r.Robots == lint.HonoursNo {
			notes = append(notes, "may ignore robots.txt")
		}
		names[i] = r.Token + " (" + strings.Join(notes, ", ") + ")"
	}
	return kind + ": " + strings.Join(names, ", ")
}

// pathColumn is the widest the column of paths of printAnswers gets: a
// longer path (a file may name one of hundreds of bytes) pushes its own
// line only, rather than padding every line to its width.
const pathColumn = 24

// printAnswers writes the verdicts and preferences of one crawler.
func printAnswers(w io.Writer, r audit.Result) {
	width, verdicts := 0, len("allowed")
	for _, v := range r.Verdicts {
		if n := len(v.Path); n <= pathColumn {
			width = max(width, n)
		}
		if !v.Allowed {
			verdicts = len("disallowed")
		}
	}
	for _, v := range r.Verdicts {
		verdict := "allowed"
		if !v.Allowed {
			verdict = "disallowed"
		}
		reason := "(" + v.Reason + ")"
		if v.Line > 0 {
			reason = "line " + strconv.Itoa(v.Line) + ": " + v.Reason
		}
		if v.Usage != nil {
			reason += "; content-usage " + usageText(*v.Usage)
		}
		fmt.Fprintf(w, "  %-*s  %-*s  %s\n", width, v.Path, verdicts, verdict, reason)
	}
	if s := r.Signals; len(s.Lines) > 0 {
		fmt.Fprintf(w, "  content-signal %s (%s)\n", signalsText(s), linesText(s.Lines))
	}
}

// signalsText writes the stated Content-Signal values: "search=yes, ai-train=no".
func signalsText(s robots.ContentSignals) string {
	return prefsText([]string{"search", "ai-input", "ai-train"}, []robots.Preference{s.Search, s.AIInput, s.AITrain}, s.Other, "yes", "no")
}

// usageText writes a Content-Usage preference with its lines: "train-ai=n (line 4)".
func usageText(u robots.ContentUsage) string {
	return prefsText([]string{"train-ai", "search"}, []robots.Preference{u.TrainAI, u.Search}, u.Other, "y", "n") +
		" (" + linesText(u.Lines) + ")"
}

// prefsText writes the stated preferences of keys, yes and no spelt as
// given, then the other keys.
func prefsText(keys []string, prefs []robots.Preference, other []robots.UsageValue, yes, no string) string {
	var parts []string
	for i, k := range keys {
		switch prefs[i] {
		case robots.PreferenceYes:
			parts = append(parts, k+"="+yes)
		case robots.PreferenceNo:
			parts = append(parts, k+"="+no)
		}
	}
	for _, o := range other {
		parts = append(parts, o.Key+"="+o.Value)
	}
	if parts == nil {
		return "nothing valid"
	}
	return strings.Join(parts, ", ")
}

// linesText writes line numbers: "line 4", "lines 4, 5".
func linesText(lines []int) string {
	s := make([]string, len(lines))
	for i, n := range lines {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return "line " + s[0]
	}
	return "lines " + strings.Join(s, ", ")
}
