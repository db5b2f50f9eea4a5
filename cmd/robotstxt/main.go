// Command robotstxt answers whether a crawler may fetch URLs under a
// robots.txt file, exactly as Google's crawlers would, and says which line
// decided.
//
// Usage:
//
//	robotstxt [-agent NAME] [-f FILE|-] URL...
//
// Each URL gets one line: "allowed" or "disallowed", the URL, and the
// deciding rule with its line number, or the reason no rule decided. With
// no -f, the example file of Google's robots.txt specification is used, and
// the command says so. -agent may be repeated: the crawler then obeys the
// groups of all the names, as Googlebot-News obeys "googlebot-news" and
// "googlebot". The exit status is 0 if every URL is allowed, 1 if any is
// disallowed, and 2 on a usage or input error, like Google's robots_main.
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gorep/robots"
)

// example is the example file of Google's robots.txt specification.
//
//go:embed example.txt
var example []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// agentList collects repeated -agent flags.
type agentList []string

func (a *agentList) String() string { return strings.Join(*a, ",") }

func (a *agentList) Set(v string) error {
	*a = append(*a, v)
	return nil
}

// run runs the command with args and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("robotstxt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var agents agentList
	fs.Var(&agents, "agent", "crawler `name` (product token, such as Googlebot); may be repeated (default Googlebot)")
	file := fs.String("f", "", "robots.txt `file` to read, or - for standard input (default: Google's example file)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robotstxt [-agent NAME]... [-f FILE|-] URL...\n\n")
		fmt.Fprintf(stderr, "Reports whether each URL may be fetched, and the line that decides.\n\n")
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
	body, err := readBody(*file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "robotstxt: %v\n", err)
		return 2
	}
	if *file == "" {
		fmt.Fprintf(stdout, "# using the example file of Google's robots.txt specification (-f to give another)\n")
	}
	g := robots.Parse(body).Group(agents...)
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

// readBody reads the robots.txt named by file: standard input for "-", the
// embedded example for "".
func readBody(file string, stdin io.Reader) ([]byte, error) {
	switch file {
	case "":
		return example, nil
	case "-":
		return io.ReadAll(io.LimitReader(stdin, robots.MaxSize))
	}
	return os.ReadFile(file)
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
