package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
	"github.com/gorep/robots/fetch"
)

// example is the example file of Google's robots.txt specification.
//
//go:embed example.txt
var example []byte

// userAgent is the User-Agent header of fetches.
const userAgent = "robotstxt (+https://github.com/gorep/robots)"

// maxInput is the most read from a file or standard input: more than
// robots.MaxSize, so that check can say that a file is too large.
const maxInput = 16 << 20

// usage lists the subcommands.
const usage = `usage: robotstxt test [-agent NAME]... [-json] [-f FILE|-|URL] URL...
       robotstxt check [-json] FILE|-|URL
       robotstxt diff [-json] [-url URL]... [-urls FILE] OLD NEW
       robotstxt fetch URL
       robotstxt audit [-json] FILE|-|URL
       robotstxt serve [-addr HOST:PORT] [-allow-fetch [-allow-private]] [FILE|-]
       robotstxt signals [-agent NAME]... [-json] URL...
       robotstxt [-agent NAME]... [-json] [-f FILE|-|URL] URL...   (the same as test)
`

// A source is the robots.txt file a command works on.
type source struct {
	// name names the file in messages: its path, "stdin", the URL fetched,
	// or "example.txt".
	name string
	// body is the content read, when not fetched.
	body []byte
	// robots is the parsed file, or the blanket answer of a fetch.
	robots *robots.Robots
	// fetched is the result of the fetch, if the file was fetched.
	fetched *fetch.Result
}

// load reads the robots.txt named by name: a file, standard input for "-",
// an http or https URL to fetch (the robots.txt that governs it), or the
// embedded example for "". A fetch that fails on the network is an error.
func load(name string, stdin io.Reader) (*source, error) {
	switch {
	case name == "":
		return &source{name: "example.txt", body: example, robots: robots.Parse(example)}, nil
	case isURL(name):
		res, err := fetch.Get(context.Background(), nil, userAgent, name)
		if err != nil {
			return nil, err
		}
		return &source{name: res.URL, robots: res.Robots, fetched: res}, nil
	}
	var body []byte
	var err error
	if name == "-" {
		name = "stdin"
		body, err = io.ReadAll(io.LimitReader(stdin, maxInput))
	} else {
		body, err = readFile(name)
	}
	if errors.Is(err, fs.ErrNotExist) && looksLikeURL(name) {
		return nil, fmt.Errorf("%w (a URL starts with its scheme, such as https://%s)", err, name)
	}
	if err != nil {
		return nil, err
	}
	return &source{name: name, body: body, robots: robots.Parse(body)}, nil
}

// loadOne parses the flags of a subcommand that takes one file, "-" or URL,
// and loads it. When it cannot, it has said why on the flag set's output
// and returns nil and the exit status: 0 after -h, 2 otherwise.
func loadOne(fs *flag.FlagSet, args []string, stdin io.Reader) (*source, int) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if fs.NArg() != 1 || fs.Arg(0) == "" {
		fs.Usage()
		return nil, 2
	}
	src, err := load(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(fs.Output(), "robotstxt: %v\n", err)
		return nil, 2
	}
	return src, 0
}

// readFile reads at most maxInput bytes of the file name.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxInput))
}

// looksLikeURL reports whether name, which names no file, looks like a URL
// without its scheme: a host with a dot, then a path
// ("example.com/robots.txt").
func looksLikeURL(name string) bool {
	host, _, path := strings.Cut(name, "/")
	if !path || !strings.Contains(host, ".") || strings.HasPrefix(host, ".") {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i] | 0x20
		if !('a' <= c && c <= 'z' || '0' <= host[i] && host[i] <= '9' || host[i] == '.' || host[i] == '-' || host[i] == ':') {
			return false
		}
	}
	return true
}

// isURL reports whether s is an http or https URL rather than a file name.
func isURL(s string) bool {
	s = strings.ToLower(s)
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// describe says in a few words what a fetch gave, such as
// "200, success: the rules of the file apply".
func describe(res *fetch.Result) string {
	status := "no response"
	if res.StatusCode != 0 {
		status = fmt.Sprint(res.StatusCode)
	}
	if res.Redirects > 0 {
		status += " after " + plural(res.Redirects, "redirect")
		if res.FinalURL != "" {
			status += " to " + res.FinalURL
		}
	}
	var policy string
	switch res.Outcome {
	case fetch.Success:
		policy = "the rules of the file apply"
	case fetch.Unavailable:
		policy = "no robots.txt: everything is allowed"
	default:
		policy = "the site erred or could not be reached: everything is disallowed for now"
	}
	return status + ", " + res.Outcome.String() + ": " + policy
}

// checkURLs returns an error for the first of urls that is not a URL to
// answer, as the tester's API says it (tester.CheckURL): an absolute http,
// https or ftp URL with a host, or a path starting with "/", %-encoded. A
// mistyped subcommand, a host without a scheme ("example.com/a") or a
// space in a host ("https://exa mple.com/") would be read by Google's
// matcher as something else, and answered.
func checkURLs(urls []string) error {
	for _, u := range urls {
		if err := tester.CheckURL(u); err != nil {
			return fmt.Errorf("%q: %v", u, err)
		}
	}
	return nil
}

// crawlers returns the crawlers to ask for the -agent values, each as the
// product tokens it obeys. Each value is one crawler. A value without "/",
// ";", "(" or ")" may list tokens separated by commas, for a crawler that
// obeys several ("googlebot-news,googlebot", as Googlebot-News does); a
// User-Agent header is one value whatever its commas. Each token goes
// through robots.CrawlerToken, the rule of every front end: "*" and product
// tokens are kept, a User-Agent header is cut to its product token and one
// that names no crawler is an error, and any other value ("MJ12bot") is
// kept; the warnings it gives are printed on stderr. No value means
// Googlebot.
func crawlers(agents []string, stderr io.Writer) ([][]string, error) {
	if len(agents) == 0 {
		return [][]string{{"Googlebot"}}, nil
	}
	var all [][]string
	for _, a := range agents {
		names := robots.SplitAgents(a)
		tokens := make([]string, len(names))
		for i, n := range names {
			t, warning, err := robots.CrawlerToken(n)
			if err != nil {
				return nil, fmt.Errorf("-agent: %s", strings.TrimPrefix(err.Error(), "robots: "))
			}
			if warning != "" {
				fmt.Fprintf(stderr, "robotstxt: warning: -agent %s\n", warning)
			}
			tokens[i] = t
		}
		all = append(all, tokens)
	}
	return all, nil
}

// plural returns n and noun, in the plural unless n is 1: "2 rules".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
