package main

import (
	"fmt"
	"io"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/lint"
)

// sniffLen is how much of a file notRobots reads: lint.Check finds a
// binary file or an HTML page in its first KiB, and a prefix keeps the
// cost of the sniff independent of the file.
const sniffLen = 64 << 10

// notRobots returns what check reports as errors about the whole of the
// file of src, if it is no robots.txt file at all: binary, UTF-16 or an
// HTML page (the codes lint.CodeBinary and lint.CodeHTML). Google still
// reads such a file as a robots.txt, so test and audit answer, and warn.
func notRobots(src *source) []string {
	body := src.body
	if res := src.fetched; res != nil {
		if res.Outcome != fetch.Success {
			return nil
		}
		body = res.Body
	}
	var warnings []string
	for _, d := range lint.Check(body[:min(len(body), sniffLen)]) {
		if d.Code == lint.CodeBinary || d.Code == lint.CodeHTML {
			warnings = append(warnings, fmt.Sprintf("%s:%d: %s (check calls this an error; the answers are what Google reads in it)", src.name, d.Line, d.Message))
		}
	}
	return warnings
}

// warnNotRobots prints the warnings of notRobots on stderr and returns
// them.
func warnNotRobots(src *source, stderr io.Writer) []string {
	warnings := notRobots(src)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "robotstxt: warning: %s\n", w)
	}
	return warnings
}
