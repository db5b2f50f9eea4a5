package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gorep/robots/fetch"
)

// runFetch runs "robotstxt fetch".
func runFetch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt fetch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt fetch URL\n\n")
		fmt.Fprintf(stderr, "Fetches the robots.txt that governs URL as Google does, and shows what applies.\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	res, err := fetch.Get(context.Background(), nil, userAgent, fs.Arg(0))
	if res == nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	w := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "url\t%s\n", res.URL)
	fmt.Fprintf(w, "status\t%s\n", describe(res))
	if err != nil {
		fmt.Fprintf(w, "error\t%v\n", err)
	}
	if res.Outcome == fetch.Unreachable {
		fmt.Fprintf(w, "retry in\t%v\n", res.TTL)
	} else {
		fmt.Fprintf(w, "cache for\t%v\n", res.TTL)
	}
	r := res.Robots
	extras := r.Extras("")
	for i, rec := range r.Records() {
		names := make([]string, len(rec.Agents))
		for j, a := range rec.Agents {
			names[j] = a.Value
		}
		fmt.Fprintf(w, "group\tline %d: %s (%s", rec.Agents[0].Line, strings.Join(names, ", "), plural(len(rec.Rules), "rule"))
		for _, e := range extras {
			if e.Record == i {
				fmt.Fprintf(w, "; %s: %s", e.Key, e.Value)
			}
		}
		fmt.Fprintf(w, ")\n")
	}
	for _, s := range r.Sitemaps() {
		fmt.Fprintf(w, "sitemap\t%s\n", s)
	}
	w.Flush()
	if res.Outcome == fetch.Unreachable {
		return 1
	}
	return 0
}
