// Command summarize turns the folder that bench/run.sh writes (benchstat's
// CSV tables, TestKeptPerByte's log, the machine and the commands) into the
// markdown tables of README's Performance section, with the ratios against
// the floor and the peers computed from that one run.
//
// Usage:
//
//	summarize [-readme README.md] results/<date>-<commit> > summary.md
//
// With -readme, the tables also replace what lies between the two marker
// comments of the README (readmeBegin and readmeEnd).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	readme := flag.String("readme", "", "also put the tables between the markers of this README")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: summarize [-readme README.md] results-folder")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *readme); err != nil {
		fmt.Fprintln(os.Stderr, "summarize:", err)
		os.Exit(1)
	}
}

// run writes the summary of the folder dir to stdout, and into readme if
// it is not "".
func run(dir, readme string) error {
	r, err := readResults(dir)
	if err != nil {
		return err
	}
	var body bytes.Buffer
	writeSummary(&body, r)
	if readme != "" {
		if err := spliceFile(readme, body.Bytes()); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintf(os.Stdout, "# Benchmark summary\n\n%s", body.Bytes())
	return err
}
