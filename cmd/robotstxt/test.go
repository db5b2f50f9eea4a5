package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gorep/robots"
)

// runTest runs "robotstxt test".
func runTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return test("robotstxt test", args, stdin, stdout, stderr)
}

// agentList collects repeated -agent flags.
type agentList []string

func (a *agentList) String() string { return strings.Join(*a, ",") }

func (a *agentList) Set(v string) error {
	*a = append(*a, v)
	return nil
}

// test prints the verdict of the robots.txt for each URL of args, with the
// deciding line. name is the command line that ran it, for messages.
func test(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var agents agentList
	fs.Var(&agents, "agent", "crawler `name` (product token, such as Googlebot); may be repeated (default Googlebot)")
	file := fs.String("f", "", "robots.txt `file` to read, - for standard input, or a URL to fetch it from (default: Google's example file)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintf(stderr, "\nReports whether each URL may be fetched, and the line that decides.\n\n")
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
	if len(agents) == 0 {
		agents = agentList{"Googlebot"}
	}
	src, err := load(*file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	switch {
	case *file == "":
		fmt.Fprintf(stdout, "# using the example file of Google's robots.txt specification (-f to give another)\n")
	case src.fetched != nil:
		fmt.Fprintf(stdout, "# %s: %s\n", src.name, describe(src.fetched))
	}
	g := src.robots.Group(agents...)
	status := 0
	for _, url := range fs.Args() {
		d := g.Decide(url)
		if !d.Allowed {
			status = 1
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\n", verdict(d), url, explain(d))
	}
	return status
}

func verdict(d robots.Decision) string {
	if d.Allowed {
		return "allowed"
	}
	return "disallowed"
}

// explain says what decided d.
func explain(d robots.Decision) string {
	if d.Reason != robots.ReasonRule {
		return "(" + d.Reason.String() + ")"
	}
	kind := "Disallow"
	if d.Rule.Allow {
		kind = "Allow"
	}
	return fmt.Sprintf("line %d: %s: %s", d.Rule.Line, kind, d.Rule.Pattern)
}
