package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/lint"
)

// A checkReport is the output of "robotstxt check -json".
type checkReport struct {
	File string `json:"file"`
	// Status and Outcome describe the fetch, for a URL.
	Status      int              `json:"status,omitempty"`
	Outcome     string           `json:"outcome,omitempty"`
	Diagnostics lint.Diagnostics `json:"diagnostics"`
}

// runCheck runs "robotstxt check".
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt check [-json] FILE|-|URL\n\n")
		fmt.Fprintf(stderr, "Reports what in a robots.txt file is wrong, ignored by Google or surprising.\n")
		fmt.Fprintf(stderr, "A URL is fetched (the robots.txt that governs it). The exit status is 1 if any finding is an error.\n\n")
		fs.PrintDefaults()
	}
	src, code := loadOne(fs, args, stdin)
	if src == nil {
		return code
	}
	report := checkReport{File: src.name, Diagnostics: lint.Diagnostics{}}
	status := 0
	switch res := src.fetched; {
	case res == nil:
		report.Diagnostics = append(report.Diagnostics, lint.Check(src.body)...)
	case res.Outcome == fetch.Success:
		// Only the first robots.MaxSize bytes were fetched.
		report.Diagnostics = append(report.Diagnostics, lint.Check(res.Body)...)
		report.Status, report.Outcome = res.StatusCode, res.Outcome.String()
	default:
		// No file to check: say what applies instead.
		report.Status, report.Outcome = res.StatusCode, res.Outcome.String()
		fmt.Fprintf(stderr, "robotstxt: %s: %s\n", src.name, describe(res))
		if res.Outcome == fetch.Unreachable {
			status = 1
		}
	}
	if report.Diagnostics.Err() != nil {
		status = 1
	}
	if body := src.body; src.fetched == nil && len(body) == 0 || src.fetched != nil && src.fetched.Outcome == fetch.Success && len(src.fetched.Body) == 0 {
		// No finding to print: say why, as Google reads it.
		fmt.Fprintf(stderr, "robotstxt: %s is empty: it allows every crawler everything\n", src.name)
	}
	if *asJSON {
		return printJSON(report, status, stdout, stderr)
	}
	for _, d := range report.Diagnostics {
		fmt.Fprintf(stdout, "%s:%d: %s: %s [%s]\n", src.name, d.Line, d.Severity, d.Message, d.Code)
	}
	return status
}
