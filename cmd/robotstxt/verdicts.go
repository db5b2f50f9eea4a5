package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/verdict"
)

// runTest runs "robotstxt test".
func runTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return test("robotstxt test", args, stdin, stdout, stderr)
}

// stringList collects the values of a repeated flag.
type stringList []string

func (a *stringList) String() string { return strings.Join(*a, ",") }

func (a *stringList) Set(v string) error {
	*a = append(*a, v)
	return nil
}

// A testReport is the output of "robotstxt test -json".
type testReport struct {
	File string `json:"file"`
	// Status and Outcome describe the fetch, for a URL.
	Status  int    `json:"status,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// FinalURL is the file fetched after redirects, whose lines the rules
	// quote, when a redirect was followed.
	FinalURL string `json:"final_url,omitempty"`
	// Agents are the crawlers asked, in the order given, each spelled as
	// its -agent value: "googlebot-news,googlebot" for a crawler that obeys
	// two tokens.
	Agents []string `json:"agents"`
	// Warnings say that the file is no robots.txt file at all (binary,
	// UTF-16, an HTML page), as check does; the verdicts are what Google
	// reads in it.
	Warnings []string `json:"warnings,omitempty"`
	// Results are the verdicts by URL, then by crawler.
	Results []testResult `json:"results"`
}

// A testResult is the verdict on one URL, in the shape of the tester's API.
type testResult = verdict.Verdict

// test prints the verdict of the robots.txt for each URL of args, with the
// deciding line. name is the command line that ran it, for messages.
func test(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var agents stringList
	fs.Var(&agents, "agent", "crawler `name`: a product token such as GPTBot, or tokens a crawler obeys together (googlebot-news,googlebot); "+
		"repeat it to ask several crawlers, each answered apart (default Googlebot)")
	file := fs.String("f", "", "robots.txt `file` to read, - for standard input, or a URL to fetch it from (default: Google's example file)")
	asJSON := fs.Bool("json", false, "print the verdicts as JSON")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintf(stderr, "\nReports whether each URL (absolute, or a path starting with /) may be fetched, and the line that decides.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if err := checkURLs(fs.Args()); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	asked, err := crawlers(agents, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	src, err := load(*file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	report := testReport{File: src.name, Warnings: warnNotRobots(src, stderr)}
	if res := src.fetched; res != nil {
		report.Status, report.Outcome = res.StatusCode, res.Outcome.String()
		if res.Redirects > 0 {
			report.FinalURL = res.FinalURL
		}
	}
	groups := make([]*robots.Group, len(asked))
	for i, tokens := range asked {
		report.Agents = append(report.Agents, strings.Join(tokens, ","))
		groups[i] = src.robots.Group(tokens...)
	}
	status := 0
	for _, url := range fs.Args() {
		for i, g := range groups {
			d := g.Decide(url)
			if !d.Allowed {
				status = 1
			}
			report.Results = append(report.Results, verdict.Of(report.Agents[i], url, d))
		}
	}
	if *asJSON {
		return printJSON(report, status, stdout, stderr)
	}
	switch {
	case *file == "":
		fmt.Fprintf(stdout, "# using the example file of Google's robots.txt specification (-f to give another)\n")
	case src.fetched != nil:
		fmt.Fprintf(stdout, "# %s: %s\n", src.name, describe(src.fetched))
	}
	for _, r := range report.Results {
		if len(groups) > 1 {
			// Several crawlers: each line names its own.
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", allowedWord(*r.Allowed), r.Agent, r.URL, explain(r, report.FinalURL))
		} else {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", allowedWord(*r.Allowed), r.URL, explain(r, report.FinalURL))
		}
	}
	return status
}

// printJSON prints v as indented JSON and returns status, or 2 if v cannot
// be encoded.
func printJSON(v any, status int, stdout, stderr io.Writer) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return status
}

func allowedWord(allowed bool) string {
	if allowed {
		return "allowed"
	}
	return "disallowed"
}

// explain says what decided r; file, if not "", is the file the rule's
// line is in (a robots.txt reached by a redirect).
func explain(r testResult, file string) string {
	if r.Rule == nil {
		return "(" + r.Reason + ")"
	}
	kind := "Disallow"
	if r.Rule.Allow {
		kind = "Allow"
	}
	if file != "" {
		return fmt.Sprintf("line %d of %s: %s: %s", r.Rule.Line, file, kind, r.Rule.Pattern)
	}
	return fmt.Sprintf("line %d: %s: %s", r.Rule.Line, kind, r.Rule.Pattern)
}
