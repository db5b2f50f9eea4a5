package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gorep/robots/cmd/robotstxt/internal/semdiff"
)

// diffHelp is the description printed by "robotstxt diff -h".
const diffHelp = `
Reports what changed from OLD to NEW, two robots.txt files (a file, - for
standard input, or a URL to fetch the robots.txt that governs it): for "*",
every crawler either file names and the known AI and search crawlers
(those of "robotstxt audit", the retired ones aside), which paths change
verdict, each with a witness path and the deciding line on both sides;
and changes of Crawl-delay, Content-Signal and Content-Usage lines per
crawler, of those lines outside any group, and of sitemaps. Crawlers
without a group of their own in either file obey "*" in both, and are
listed with it.

Paths are compared on witnesses derived from the patterns of both files
(their literal parts, with "*" taken as empty and as one byte, "$" as the
end and as followed by "/", each extended by one byte), on a path for
each pair of deciding rules that exploring a crawler's wildcard patterns
together finds, and on the URLs of -url and -urls. Every change reported
is real, and the report is complete: if any path changes verdict for a
crawler compared, a change with the same deciding lines is reported;
unless a budget cut it. The work is bounded whatever the files (about a
second and tens of megabytes): the wildcards of a crawler's rules may
combine in too many ways to explore (20,000 states, about a second of
work, 32 MiB of states), the patterns may be too long for all their
witnesses (16 MiB), or the crawlers times the witnesses may be too many
to decide (5 million decisions, more for larger groups). The report then
says which budget cut it, and what may be missing: list such paths with
-url. Each change shows its first witness and how many more share it,
not every path affected.

The exit status is 0 when nothing changed, 1 when something did, and 2 on
a usage error or an input that cannot be read (a fetch that fails on the
network included).

`

// runDiff runs "robotstxt diff".
func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var urls stringList
	fs.Var(&urls, "url", "a `URL` or path to compare too; may be repeated")
	urlFile := fs.String("urls", "", "`file` of URLs or paths to compare too, one per line (# starts a comment)")
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt diff [-json] [-url URL]... [-urls FILE] OLD NEW\n%s", diffHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 || fs.Arg(0) == "" || fs.Arg(1) == "" || fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		fs.Usage()
		return 2
	}
	if *urlFile != "" {
		more, err := readURLs(*urlFile)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %v\n", err)
			return 2
		}
		urls = append(urls, more...)
	}
	if err := checkURLs(urls); err != nil {
		fmt.Fprintf(stderr, "robotstxt diff: %v\n", err)
		return 2
	}
	var srcs [2]*source
	for i := range srcs {
		src, err := load(fs.Arg(i), stdin)
		if err != nil {
			fmt.Fprintf(stderr, "robotstxt: %v\n", err)
			return 2
		}
		srcs[i] = src
	}
	report := semdiff.Compare(srcs[0].robots, srcs[1].robots, semdiff.Options{URLs: urls})
	status := 0
	if report.Changed() {
		status = 1
	}
	if *asJSON {
		return printJSON(diffReport{Old: srcs[0].name, New: srcs[1].name, Changed: report.Changed(), Report: report}, status, stdout, stderr)
	}
	printDiff(stdout, srcs, report)
	return status
}

// A diffReport is the output of "robotstxt diff -json".
type diffReport struct {
	Old     string `json:"old"`
	New     string `json:"new"`
	Changed bool   `json:"changed"`
	*semdiff.Report
}

// readURLs reads the URLs listed in the file name, one per line, without
// blank lines and "#" comments.
func readURLs(name string) ([]string, error) {
	body, err := readFile(name)
	if err != nil {
		return nil, err
	}
	var urls []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			urls = append(urls, line)
		}
	}
	return urls, sc.Err()
}

// printDiff prints report as text, grouped by crawler.
func printDiff(w io.Writer, srcs [2]*source, report *semdiff.Report) {
	for i, mark := range []string{"---", "+++"} {
		fmt.Fprintf(w, "%s %s", mark, srcs[i].name)
		if res := srcs[i].fetched; res != nil {
			fmt.Fprintf(w, " (%s)", describe(res))
		}
		fmt.Fprintln(w)
	}
	if !report.Changed() {
		if report.Complete {
			fmt.Fprintf(w, "no change for %s on %s\n", plural(report.Crawlers, "crawler"), plural(report.Paths, "path"))
		} else {
			fmt.Fprintf(w, "no change found for %s on %s, within the budget (see the note)\n", plural(report.Crawlers, "crawler"), plural(report.Paths, "path"))
		}
		printIncomplete(w, report)
		return
	}
	for _, a := range report.Agents {
		switch {
		case a.Agent == "*" && len(a.Like) > 0:
			fmt.Fprintf(w, "User-agent: * (and the crawlers without a group of their own: %s)\n", strings.Join(a.Like, ", "))
		default:
			fmt.Fprintf(w, "User-agent: %s\n", strings.Join(append([]string{a.Agent}, a.Like...), ", "))
		}
		for _, v := range a.Verdicts {
			more := ""
			if v.Paths > 1 {
				more = fmt.Sprintf(" (and %d more)", v.Paths-1)
			}
			fmt.Fprintf(w, "  %s%s\n    - %s\n    + %s\n", v.Path, more, side(a.Agent, v.Old), side(a.Agent, v.New))
		}
		if d := a.CrawlDelay; d != nil {
			fmt.Fprintf(w, "  Crawl-delay\n    - %s\n    + %s\n", orNone(d.Old), orNone(d.New))
		}
		printExtras(w, "  ", a.Extras)
	}
	if s := report.Sitemaps; s != nil {
		fmt.Fprintf(w, "Sitemap\n")
		for _, u := range s.Removed {
			fmt.Fprintf(w, "  - %s\n", u)
		}
		for _, u := range s.Added {
			fmt.Fprintf(w, "  + %s\n", u)
		}
	}
	if len(report.Extras) > 0 {
		fmt.Fprintf(w, "Outside any group\n")
		printExtras(w, "  ", report.Extras)
	}
	printIncomplete(w, report)
}

// printIncomplete says, if report is not complete, what may be missing.
func printIncomplete(w io.Writer, report *semdiff.Report) {
	for _, limit := range report.Limits {
		switch limit {
		case semdiff.LimitPatterns:
			fmt.Fprintf(w, "note: the patterns of these files are too long to derive every witness path within the budget: a change seen only on paths made from the later patterns may be missing (give such paths with -url)\n")
		case semdiff.LimitWildcards:
			fmt.Fprintf(w, "note: the wildcards of these files combine in too many ways to explore all: a change seen only on paths that match several \"*\" patterns at once may be missing (give such paths with -url)\n")
		case semdiff.LimitDecisions:
			fmt.Fprintf(w, "note: too many crawlers and paths to compare every verdict within the budget: the verdicts of the crawlers listed last (in the order *, then by name) were not compared\n")
		}
	}
}

// printExtras prints the changes of extra lines, indented.
func printExtras(w io.Writer, indent string, extras []semdiff.ExtraChange) {
	for _, e := range extras {
		fmt.Fprintf(w, "%s%s\n", indent, e.Key)
		for _, side := range []struct {
			mark   string
			values []string
		}{{"-", e.Old}, {"+", e.New}} {
			if len(side.values) == 0 {
				fmt.Fprintf(w, "%s  %s (none)\n", indent, side.mark)
			}
			for _, v := range side.values {
				fmt.Fprintf(w, "%s  %s %s\n", indent, side.mark, v)
			}
		}
	}
}

// side describes one side of a verdict change for agent, saying when the
// group for "*" answered for another crawler.
func side(agent string, v semdiff.Verdict) string {
	if v.Global && agent != "*" {
		return v.Decision + ", in the group for *"
	}
	return v.Decision
}

// orNone returns s, or "(none)" if it is empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
