// Command summarize turns the folder that bench/run.sh writes (benchstat's
// CSV tables, TestKeptPerByte's log, the machine and the commands) into
// markdown tables, with the ratios against the floor and the peers
// computed from that one run: the full summary (summary.md, and
// bench/RESULTS.md's latest run) and the short table of README's
// Performance section.
//
// Usage:
//
//	summarize [-readme README.md] [-results RESULTS.md] results/<date>-<commit> > summary.md
//
// With -readme, the short table replaces what lies between the marker
// comments readmeBegin and markEnd of the README; with -results, the full
// summary what lies between resultsBegin and markEnd of RESULTS.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	readme := flag.String("readme", "", "also put the short table between the markers of this README")
	results := flag.String("results", "", "also put the full summary between the markers of this RESULTS.md")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: summarize [-readme README.md] [-results RESULTS.md] results-folder")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *readme, *results); err != nil {
		fmt.Fprintln(os.Stderr, "summarize:", err)
		os.Exit(1)
	}
}

// run writes the summary of the folder dir to stdout, and into resultsMD
// if it is not ""; and the short table into readme if it is not "".
func run(dir, readme, resultsMD string) error {
	r, err := readResults(dir)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	writeSummary(&body, r)
	if resultsMD != "" {
		if err := spliceFile(resultsMD, body.Bytes(), resultsBegin); err != nil {
			return err
		}
	}
	if readme != "" {
		var short bytes.Buffer
		writeReadme(&short, r)
		if err := spliceFile(readme, short.Bytes(), readmeBegin); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(os.Stdout, "# Benchmark summary\n\n%s", body.Bytes())
	return err
}
