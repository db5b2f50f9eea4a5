package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gorep/robots"
)

// ErrDisallowed is the error, wrapped in a *DisallowedError, with which a
// Transport refuses a request that robots.txt disallows:
//
//	resp, err := client.Get(page)
//	if errors.Is(err, fetch.ErrDisallowed) { ... skip the page ... }
var ErrDisallowed = errors.New("robots: disallowed")

// A DisallowedError says why a Transport refused a request. It matches
// ErrDisallowed with errors.Is; errors.As gets it out of the *url.Error of
// an http.Client.
type DisallowedError struct {
	// URL is the refused URL.
	URL string
	// Agent is the product token the rules were chosen for.
	Agent string
	// Decision is the answer of the rules, with the deciding rule when a
	// rule decided.
	Decision robots.Decision
	// File is the URL of the robots.txt file whose line decided, when a
	// redirect led there from the robots.txt URL of URL; "" otherwise,
	// and when the cache no longer held that file's state.
	File string
	// State is what the cache knew of the host when no rule decided but the
	// cache's policy did (as while a host answers 503: Decision.Reason is
	// not robots.ReasonRule); its Policy says it in words. It is zero
	// otherwise, or when the cache knew nothing more.
	State HostState
}

// Error says what refused the request, such as "robots: disallowed by line
// 3: Disallow: /private/", "robots: disallowed by line 3 of
// https://example.com/files/robots.txt: Disallow: /private/" (File) or
// "robots: disallow all: 503 since 10:00, retried at 10:10".
func (e *DisallowedError) Error() string {
	switch {
	case e.State.Policy != "":
		return "robots: " + e.State.Policy
	case e.File != "" && e.Decision.Reason == robots.ReasonRule:
		return "robots: disallowed by line " + strconv.Itoa(e.Decision.Rule.Line) + " of " + e.File + ": " + e.Decision.Rule.String()
	}
	return "robots: " + e.Decision.String()
}

// Is reports whether target is ErrDisallowed.
func (e *DisallowedError) Is(target error) bool { return target == ErrDisallowed }

// TransportOptions tune a Transport. The zero value means a Cache with
// Google's policy and no waiting between requests.
type TransportOptions struct {
	// Base is the transport that allowed requests go to, and robots.txt
	// fetches too, when NewTransport is given none (as NewClient is): a
	// proxy, a guarded dialer. Nil: http.DefaultTransport for requests,
	// and a Guard's transport for the robots.txt fetches (see Guard).
	Base http.RoundTripper
	// Cache is the policy of the Cache the transport makes.
	Cache Options
	// Polite, if true, makes the transport wait before each request to a
	// host as Politeness.Wait does. Politeness sets the options of the
	// transport's Politeness, which every transport has: it also hears each
	// answer (Politeness.Answered), so that a Queue over it obeys a host's
	// 429 and 503 answers.
	Polite     bool
	Politeness PoliteOptions
}

// A Transport is an http.RoundTripper that obeys robots.txt: before each
// request it asks its Cache whether the crawler may fetch the URL, refuses
// it with a *DisallowedError if not, optionally waits for the host's
// crawl-delay (TransportOptions.Polite), and then hands the request to the
// base transport. Every hop of a redirect is a request and is checked. Its
// Politeness hears every answer: a 429, 500 or 503 slows the host down
// (Politeness.Answered), for its own waits and for a Queue over it.
//
// The crawler is the one its User-Agent header names: the transport sends
// that header with every request, replacing the request's own, and checks
// the rules for its product token (robots.ProductToken), so what a server
// sees and what was checked cannot disagree.
//
// Requests whose scheme is not http or https, and requests for /robots.txt,
// go to the base transport unchecked, with the crawler's User-Agent header.
//
// On a cache hit, an allowed request costs the transport no allocation,
// unless it carries another User-Agent header: then the transport sends a
// copy of it, since a RoundTripper must not change its request.
//
// The base transport must keep each request's context (req.Context()): it
// carries the deadline of a robots.txt fetch (Options.Timeout) and the mark
// that tells those fetches apart. One that loses it cannot hang a request:
// the Cache stops waiting after its Timeout, whatever the base does, and
// the host is disallowed for now as after a network error.
//
// The transport makes its own Cache, which fetches robots.txt files with the
// base transport, never through the transport itself: a robots.txt fetch
// (or a redirect it follows to another file on the same host) cannot wait
// on itself. Should the base transport route requests back into the
// transport, the robots.txt fetches are recognised and passed through.
type Transport struct {
	base      http.RoundTripper
	cache     *Cache
	polite    *Politeness
	wait      bool // TransportOptions.Polite
	userAgent string
	agent     string
	// guardHops is set when the transport was given no base and no
	// AllowPrivate: it refuses a redirect hop to a guarded IP literal
	// (hopRefusal, see Guard).
	guardHops bool
	// uaValue is the value of the User-Agent field of the requests that
	// carried another. They share it: its capacity of one makes an append
	// copy it.
	uaValue []string
}

// NewTransport returns a Transport over base (nil: opts.Base) for the
// crawler whose full User-Agent header is userAgent, such as "ExampleBot/1.0
// (+https://example.com/bot)". It returns an error if userAgent names no
// crawler: robots.ProductToken finds no token in it, as in a browser's
// header, and the rules for "*" would apply silently; or if it is
// ambiguous, its first word without a version ("Eval Bot/1.0": "Eval" or
// "Bot"?), with an error that names the fix (robots.CrawlerToken).
//
// With neither base nor opts.Base, requests go to http.DefaultTransport and
// robots.txt fetches through a Guard (unless opts.Cache.AllowPrivate): no
// robots.txt fetch connects to the crawler's own network unless the page's
// host is such an address itself, and no redirect leads a page, or its
// robots.txt, to a guarded IP literal unless the first URL of the chain was
// one (see Guard). A base given is used for both as it is.
func NewTransport(base http.RoundTripper, userAgent string, opts TransportOptions) (*Transport, error) {
	agent, err := agentToken(userAgent)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = opts.Base
	}
	fetcher, guardHops := base, false
	switch {
	case base != nil:
	case opts.Cache.AllowPrivate:
		base, fetcher = http.DefaultTransport, http.DefaultTransport
	default:
		base, fetcher, guardHops = http.DefaultTransport, guardedTransport(), true
	}
	// The cache's client bounds each fetch with Options.Timeout, not with
	// a client timeout.
	cache := NewCache(&http.Client{Transport: robotsFetcher{fetcher}}, userAgent, opts.Cache)
	t := &Transport{base: base, cache: cache, userAgent: userAgent, agent: agent, uaValue: []string{userAgent},
		guardHops: guardHops}
	if t.polite, err = NewPoliteness(cache, opts.Politeness); err != nil {
		return nil, err
	}
	t.wait = opts.Polite
	return t, nil
}

// NewClient returns an *http.Client that obeys robots.txt for the crawler
// whose full User-Agent header is userAgent: its transport is
// NewTransport(opts.Base, userAgent, opts). Set opts.Polite for the
// crawl-delays too. The client has no Timeout, which would count the time
// spent waiting for a polite slot; give each request a context with a
// deadline instead.
func NewClient(userAgent string, opts TransportOptions) (*http.Client, error) {
	t, err := NewTransport(nil, userAgent, opts)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t}, nil
}

// Cache returns the cache of t, to ask it about hosts (Cache.State) or to
// check URLs without fetching them.
func (t *Transport) Cache() *Cache { return t.cache }

// Politeness returns the politeness of t: the one it waits with if
// TransportOptions.Polite was set, and the one that hears its answers in
// any case, for a Queue to share.
func (t *Transport) Politeness() *Politeness { return t.polite }

// Agent returns the product token the rules are checked for.
func (t *Transport) Agent() string { return t.agent }

// RoundTrip checks req against robots.txt, waits if t is polite, and sends
// req with the base transport. A refused request gets a *DisallowedError;
// a URL the cache cannot check (an http URL with an invalid host) or a
// context that ends while waiting gets that error; the base transport is
// not called then.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.guardHops {
		if err := hopRefusal(req); err != nil {
			closeBody(req)
			return nil, err
		}
	}
	if passesThrough(req) {
		// With the crawler's User-Agent all the same: a /robots.txt
		// request names the crawler to the server as any other does.
		return t.base.RoundTrip(t.withUserAgent(req))
	}
	robotsURL, r, err := t.check(req)
	if err != nil {
		if req.Body != nil {
			req.Body.Close() // as a RoundTripper must, even on errors
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(t.withUserAgent(req))
	status, header := 0, http.Header(nil) // a failed request is an answer too
	if err == nil {
		status, header = resp.StatusCode, resp.Header
	}
	t.polite.answered(req.Context(), robotsURL, r, status, header)
	return resp, err
}

// check returns the robots.txt URL of req and its rules, and no error when
// req may go: the rules allow it and, if t is polite, its turn has come. It
// reads req.URL in place: on a cache hit for a plain origin, an allowed
// request costs no allocation.
func (t *Transport) check(req *http.Request) (string, *robots.Robots, error) {
	ctx := req.Context()
	robotsURL, r, err := t.cache.robotsOfURL(ctx, req.URL)
	if err != nil {
		return "", nil, err
	}
	if d := decide(r, t.agent, req.URL); !d.Allowed {
		return "", nil, t.refusal(req.URL.String(), d, robotsURL, r)
	}
	if t.wait {
		return robotsURL, r, t.polite.wait(ctx, robotsURL, r, true)
	}
	return robotsURL, r, nil
}

// pathBuf is the size of the buffer in which decide joins the path and the
// query of a URL; longer ones are allocated.
const pathBuf = 2048

// decide returns r's decision for agent on u, as r.Decide(agent, u.String())
// would, from u's path and query joined in a buffer on the stack. It is not
// inlined, so that the buffer does not weigh on the frame of check while it
// waits.
//
//go:noinline
func decide(r *robots.Robots, agent string, u *url.URL) robots.Decision {
	path := u.EscapedPath()
	switch {
	case u.Opaque != "" || strings.HasPrefix(path, "//"):
		// An opaque URL is written as it is; a path "//..." alone would
		// read as a scheme-relative URL.
		return r.Decide(agent, u.String())
	case path == "" || path[0] != '/':
		path = "/" + path // as u.String writes it after a host
	}
	if u.RawQuery == "" && !u.ForceQuery {
		return r.Decide(agent, path)
	}
	if len(path)+len("?")+len(u.RawQuery) > pathBuf {
		return r.Decide(agent, path+"?"+u.RawQuery)
	}
	var buf [pathBuf]byte
	b := append(append(append(buf[:0], path...), '?'), u.RawQuery...)
	// The rules keep nothing of the URL they are asked about, so the
	// string need not outlive buf.
	return r.Decide(agent, unsafe.String(unsafe.SliceData(b), len(b)))
}

// passesThrough reports whether req goes to the base transport unchecked:
// not http or https, a request for /robots.txt, or a robots.txt fetch of the
// transport's own cache.
func passesThrough(req *http.Request) bool {
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return true
	}
	return req.URL.Path == "/robots.txt" || req.Context().Value(robotsFetchKey{}) != nil
}

// refusal returns the error that refuses page for decision d of the rules
// r of robotsURL.
func (t *Transport) refusal(page string, d robots.Decision, robotsURL string, r *robots.Robots) *DisallowedError {
	return t.cache.refusal(t.agent, page, d, robotsURL, r)
}

// withUserAgent returns req with t's User-Agent header: req itself if it
// has it already, or else a copy, since a RoundTripper must not change its
// request.
func (t *Transport) withUserAgent(req *http.Request) *http.Request {
	if ua := req.Header["User-Agent"]; len(ua) == 1 && ua[0] == t.userAgent {
		return req
	}
	r := *req
	r.Header = req.Header.Clone()
	if r.Header == nil {
		r.Header = make(http.Header, 1)
	}
	r.Header["User-Agent"] = t.uaValue
	return &r
}

// robotsFetchKey marks the context of the robots.txt fetches of a
// Transport's cache.
type robotsFetchKey struct{}

// A robotsFetcher is the transport of a Transport's cache: its base, with
// each request marked as a robots.txt fetch, so that the Transport passes it
// through should the base route it back there.
type robotsFetcher struct{ base http.RoundTripper }

// RoundTrip marks req and sends it with the base transport.
func (f robotsFetcher) RoundTrip(req *http.Request) (*http.Response, error) {
	return f.base.RoundTrip(req.WithContext(context.WithValue(req.Context(), robotsFetchKey{}, true)))
}

// agentToken returns the token to check the rules for, for the crawler
// whose User-Agent header is userAgent, by the rule every front end of this
// module follows (robots.CrawlerToken), or an error if it names no crawler.
func agentToken(userAgent string) (string, error) {
	agent, _, err := robots.CrawlerToken(userAgent)
	if err != nil && robots.ProductToken(userAgent) != "" {
		return "", err // ambiguous ("Eval Bot/1.0"): the error names the fix
	}
	if err != nil || agent == "*" {
		return "", fmt.Errorf("robots: User-Agent %q names no crawler, "+
			"so the rules for * would apply; start it with the crawler's name, such as \"ExampleBot/1.0 (+https://example.com/bot)\"", userAgent)
	}
	return agent, nil
}
