// Command robotstxt tests URLs against a robots.txt file exactly as Google's
// crawlers read it, says which line decided, checks files for mistakes and
// reports what an edit changed.
//
// Usage:
//
//	robotstxt test [-agent NAME]... [-json] [-f FILE|-|URL] URL...
//	robotstxt check [-json] FILE|-|URL
//	robotstxt diff [-json] [-url URL]... [-urls FILE] OLD NEW
//	robotstxt fetch URL
//	robotstxt audit [-json] FILE|-|URL
//	robotstxt serve [-addr HOST:PORT] [-allow-fetch [-allow-private]] [FILE|-]
//	robotstxt signals [-agent NAME]... [-json] URL...
//	robotstxt [-agent NAME]... [-json] [-f FILE|-|URL] URL...
//
// test prints one line per URL: "allowed" or "disallowed", the URL, and the
// deciding rule with its line number, or the reason no rule decided; -json
// prints the same as JSON; a rule of a file reached by a redirect is quoted
// with the name of that file. Each URL is absolute
// ("https://example.com/a") or a path starting with "/", %-encoded, as the
// tester's API checks it; anything else is a usage error. The
// robots.txt is read from FILE, from standard input for "-", or fetched
// from a URL as Google does (a 404 allows everything, a 503 disallows
// everything); with no -f, the example file of Google's robots.txt
// specification is used, and the command says so. -agent names a crawler
// (default Googlebot) and may be repeated: each crawler is then answered
// apart, one line per URL and crawler, each line naming its crawler after
// the verdict. A crawler that obeys several product tokens is spelled with
// commas, as "-agent googlebot-news,googlebot": it obeys the groups of all
// of them, as Googlebot-News does. Each name goes through
// robots.CrawlerToken, the rule of every front end of this module (the
// tester page, fetch.Cache and fetch.Transport apply it too): a full
// User-Agent header ("EvalBot/1.0 (+http://x)", one value whatever its
// commas) is cut to its product token with a warning, since as given it
// would match no group; one that names no crawler is a usage error; another
// value that is not a token ("MJ12bot") is asked as given, with a warning
// that only the groups for "*" can answer it. The exit status is 0 if
// every answer is allowed, 1 if any is disallowed, and 2 on a usage or input
// error (a fetch that fails on the network included), like Google's
// robots_main. A file that is no robots.txt at all (binary, UTF-16, an
// HTML page, which check calls errors) is answered as Google reads it, with
// a warning that does not change the exit status; audit does the same.
// Without a subcommand name, robotstxt runs test; a first
// argument that is neither a flag, a URL nor a subcommand is a usage error.
//
// check prints what in the file is wrong, ignored by Google or surprising,
// one finding per line as a compiler does ("robots.txt:12: warning: ...
// [code]"), or as JSON with -json; of an empty file, it says on standard
// error that it allows everything. The exit status is 1 if any finding is
// an error, 2 on a usage or input error, and 0 otherwise. A file that does
// not exist but is named like a URL without its scheme
// ("example.com/robots.txt") gets a hint, for every subcommand.
//
// diff reports what changed from OLD to NEW (files, "-", or URLs): for "*",
// every crawler either file names and the known AI and search crawlers
// (those audit lists, the retired ones aside), which paths change verdict,
// each with a witness path and the deciding line on both sides, and the
// changes of Crawl-delay, Content-Signal, Content-Usage and sitemaps. "robotstxt diff -h" and package internal/semdiff say exactly
// what is guaranteed. The exit status is 0 when nothing changed, 1 when
// something did, and 2 on a usage or input error.
//
// fetch fetches the robots.txt that governs a URL and shows its URL, the
// HTTP status (with the file a redirect led to), the policy that applies, how long it may be cached, its groups
// and its sitemaps. The exit status is 0 when the file, or its absence, was
// established, 1 when the site could not be reached (everything is then
// disallowed) and 2 on a usage error.
//
// audit says what the file does to the known AI crawlers, the AI control
// tokens and the major search crawlers: whether each may fetch "/" and the
// paths the file's own rules name, which line decides, and the usage
// preferences that apply, with a summary line ("blocks 5 of 19 known AI
// crawlers, 2 of 2 AI control tokens and ..."), or as JSON
// with -json. The exit status is 0 when the audit ran, 1 when the robots.txt
// could not be fetched because the site erred or could not be reached, and
// 2 on a usage or input error.
//
// signals fetches the robots.txt, the tdmrep.json and, where robots.txt
// allows, the page's headers and head, and says per use (fetch, index,
// snippet, ai-input, ai-train) whether the site allows it and which signal
// decided (see package signals), for each crawler -agent names, read as
// for test (repeated: each apart; commas: one crawler of several tokens).
// The exit status is 0 when every URL may be fetched, 1 when one may not,
// and 2 on a usage error.
//
// serve starts the tester, a web page on 127.0.0.1:8080 (-addr) to edit the
// file (FILE, or the example) and see as one types which URLs are allowed
// and which line decides; -allow-fetch lets the page load live files, from
// public addresses only unless -allow-private is given too. See
// internal/tester for the page and its JSON API. It runs until interrupted,
// then exits 0; 1 if the server fails, 2 on a usage error or an address it
// cannot listen on.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// A command runs a subcommand with its arguments and returns its exit
// status.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// commands are the subcommands, by name. A new subcommand, such as serve, is
// one more entry here and a line in usage.
var commands = map[string]command{
	"test":    runTest,
	"check":   runCheck,
	"fetch":   runFetch,
	"serve":   runServe,
	"diff":    runDiff,
	"audit":   runAudit,
	"signals": runSignals,
}

// run runs the command with args and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdin, stdout, stderr)
	}
	if first := args[0]; !strings.HasPrefix(first, "-") && checkURLs(args[:1]) != nil {
		// Neither a flag nor a URL of the form without a subcommand.
		fmt.Fprintf(stderr, "robotstxt: unknown command %q%s\n\n%s", first, hint(first), usage)
		return 2
	}
	return test("robotstxt", args, stdin, stdout, stderr)
}

// hint suggests what the user of an unknown command name may have meant: a
// subcommand one typo away, test -f for a file, or a scheme for a URL
// without one.
func hint(name string) string {
	for _, c := range slices.Sorted(maps.Keys(commands)) {
		if oneEditApart(name, c) {
			return fmt.Sprintf(" (did you mean %q?)", c)
		}
	}
	if _, err := os.Stat(name); err == nil {
		return fmt.Sprintf(" (to test URLs against the file, run: robotstxt test -f %s URL...)", name)
	}
	if strings.ContainsAny(name, "./") {
		return " (a URL starts with its scheme, such as https://" + name + ")"
	}
	return ""
}

// oneEditApart reports whether a becomes b by inserting, deleting,
// replacing or swapping two adjacent bytes, once.
func oneEditApart(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch {
	case len(b)-len(a) > 1:
		return false
	case len(a) != len(b):
		return a[i:] == b[i+1:]
	case i == len(a):
		return false // equal
	case a[i+1:] == b[i+1:]:
		return true
	default:
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
}
