package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	uses "github.com/gorep/robots/usage" // the command's usage text is usage
)

// signalsUsage is the usage of "robotstxt signals".
const signalsUsage = `usage: robotstxt signals [-agent NAME]... [-json] URL...

Fetches the robots.txt that governs each URL, its site's tdmrep.json and,
if robots.txt allows it, the page's headers and head, and says for each use
(fetch, index, snippet, ai-input, ai-train) whether the site allows it:
allow, deny, conditional or unknown, with the signals that decided
(robots.txt, x-robots-tag, meta, tdmrep, content-signal, content-usage).
See package signals for the mapping. -agent is read as by test: a crawler
(default Googlebot), repeated to ask several, each answered apart; a
crawler that obeys several tokens is spelled with commas
(googlebot-news,googlebot). -json prints one JSON object per URL and
crawler. The exit status is 0 when every URL may be fetched, 1 when one
may not, and 2 on a usage error.
`

// runSignals runs "robotstxt signals".
func runSignals(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt signals", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, signalsUsage) }
	var agents stringList
	fs.Var(&agents, "agent", "crawler `name`, as for test: repeat it to ask several crawlers, each answered apart (default Googlebot)")
	asJSON := fs.Bool("json", false, "print one JSON object per URL")
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
	for _, u := range fs.Args() {
		if !isURL(u) {
			fmt.Fprintf(stderr, "robotstxt signals: %q is not an http or https URL\n", u)
			return 2
		}
	}
	// The one reading of -agent of every command (crawlers), and the one
	// agent rule of every front end (robots.CrawlerToken).
	asked, err := crawlers(agents, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt signals: %v\n", err)
		return 2
	}
	status := 0
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	cache := fetch.NewCache(nil, userAgent, fetch.Options{}) // each site's files fetched once
	for _, u := range fs.Args() {
		for _, tokens := range asked {
			// A crawler of several tokens is spelled with commas, as
			// usage.Signals and signals.Decide read it.
			res, err := uses.Signals(context.Background(), cache, strings.Join(tokens, ","), u)
			if err != nil {
				fmt.Fprintf(stderr, "robotstxt signals: %v\n", err)
				return 2
			}
			d := res.Decision
			if d.Uses.Fetch.Answer != signals.Allow {
				status = 1
			}
			if *asJSON {
				if err := enc.Encode(d); err != nil {
					return 2
				}
				continue
			}
			printSignals(stdout, d)
		}
	}
	return status
}

// printSignals prints d as a table: one line per use, then what was not
// seen and the problems.
func printSignals(w io.Writer, d signals.Decision) {
	fmt.Fprintf(w, "%s (agent %s)\n", d.URL, d.Agent)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, u := range signals.AllUses {
		v := d.Uses.Get(u)
		var by []string
		for _, r := range v.By {
			by = append(by, r.Signal+": "+r.Detail)
		}
		if len(by) == 0 {
			by = []string{"-"}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", u, v.Answer, by[0])
		for _, more := range by[1:] {
			fmt.Fprintf(tw, "  \t\t%s\n", more)
		}
	}
	tw.Flush()
	for _, s := range d.Unseen {
		fmt.Fprintf(w, "  not seen: %s\n", s)
	}
	for _, p := range d.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
}
