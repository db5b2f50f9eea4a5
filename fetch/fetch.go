// Package fetch gets robots.txt files over HTTP and keeps them for as long as
// Google's crawlers would, so that a crawler asks one question per URL:
//
//	cache := fetch.NewCache(nil, "ExampleBot/1.0 (+https://example.com/bot)", fetch.Options{})
//	ok, err := cache.Allowed(ctx, "ExampleBot", "https://example.com/page")
//
// It implements the sections "Handling of errors and HTTP status codes" and
// "Caching" of Google's robots.txt specification
// (https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec),
// which refine RFC 9309, section 2.3. Get fetches one file:
//
//   - The file is fetched with a plain, non-conditional GET of the robots.txt
//     URL of the page (robots.URL), with the crawler's User-Agent header.
//   - At most five redirect hops are followed, to any host; a sixth hop or
//     a loop counts as a 404.
//   - Unless the caller gives its own client, no connection goes to the
//     crawler's own network (loopback, private, link-local addresses ...),
//     whatever a name resolves to or a redirect says, unless the robots.txt
//     URL names such an address itself (never a link-local address or a
//     cloud's metadata service): see Guard, and Options.AllowPrivate.
//   - At most robots.MaxSize bytes (500 KiB) of the body are read; the rest
//     is ignored.
//   - The status decides, as robots.FromStatus does: 2xx is parsed; 3xx
//     (after giving up), and 4xx except 429, allow everything; 429, 5xx and
//     any other code disallow everything.
//   - DNS errors, timeouts, refused, reset or interrupted connections and
//     truncated or badly chunked bodies are server errors: everything is
//     disallowed, and the error is returned so the caller can log it.
//   - After a 429 or a 503, a Retry-After field (RFC 9110, section 10.2.3:
//     delay-seconds or an HTTP-date) sets when the file is fetched again,
//     kept between Options.MinLifetime and Options.DisallowFor; without one,
//     the retry intervals below apply. Google's crawling documentation added
//     Retry-After to "Reduce the Google crawl rate" on 6 October 2026
//     (https://developers.google.com/crawling/docs/crawlers-fetchers/reduce-crawl-rate,
//     per its changelog; support itself was already documented under
//     "Temporarily pause or disable a website"): a site slows Google's
//     crawlers down with 429, 500 or 503 answers, and a Retry-After field
//     says when to come back. (Only the changelog entry and the start of that
//     page could be read here; the details are RFC 9110's.) This package
//     reads it for robots.txt fetches answered 429 or 503 only, keeps it in
//     the shared State so that a whole fleet waits alike, and never lets it
//     stretch the first phase of the error policy.
//
// A Cache keeps the files of many hosts and decides, from their history,
// which rules apply now:
//
//   - A fetched file, or the absence of one (4xx), is used for 24 hours, or
//     for the Cache-Control max-age of the response kept within bounds, then
//     fetched again.
//   - When a fetch fails (429, 5xx or network error), everything is
//     disallowed for the first 12 hours of failures while the file is fetched
//     again every hour, or every 10 minutes after a 503. Then the last good
//     copy is used, or no rules if there was none, until 30 days after the
//     first failure. After that the site is treated as having no robots.txt
//     if the caller reports it as otherwise reachable (Options.Reachable),
//     and as disallowing everything if not. Fetching goes on throughout.
//   - One fetch per host at a time: concurrent callers wait for it. With a
//     shared Store (Options.Store), one fetch per host for all the Caches
//     that share it: a fleet of crawler processes.
//   - The least recently used hosts are forgotten beyond a bound in bytes
//     (Options.MaxBytes) and in hosts (Options.MaxHosts); at most
//     Options.MaxFetches fetches run at once.
//
// All those durations and bounds are fields of Options, whose zero value
// means the defaults above.
//
// Cache.State says which part of the policy applies to a host and why
// ("disallow all: 503 since …, retried at …"); Cache.Decide reports
// robots.ReasonDisallowAll or robots.ReasonAllowAll when the policy rather
// than a rule decided; Cache.Stats counts hits, misses, fetches, waits and
// faults. A Cache asked with a full User-Agent header instead of a product
// token reduces it to its token (robots.ProductToken), never to the "*"
// group.
//
// A Transport (NewClient) refuses the requests robots.txt disallows; a
// Politeness spaces a crawler's requests to each host by its Crawl-delay or
// Request-rate, and slows down when the host answers 429, 500 or 503; a
// Queue hands workers the URLs whose hosts are free. With a Store that is
// also a SlotStore (redisstore), a fleet of processes shares those slots. A
// crawler learns a host's state from its first answer (a 503 and its
// Retry-After), so a host's first request goes alone: until the host has
// answered it, or PoliteOptions.FirstHold has passed, no second slot is
// handed out for it, in the whole fleet.
//
// Where Google's page leaves a number open, this package chooses: the retry
// intervals (1 hour, 10 minutes after a 503), the bounds on max-age (1 minute
// to 7 days), the point from which the 30 days are counted (the first failed
// fetch, as in RFC 9309) and what counts as a good copy (a 2xx file, or the
// absence of one signalled by a 4xx or too many redirects). FTP, which Google
// also fetches robots.txt files over, is not supported.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorep/robots"
)

// maxRedirects is the number of redirect hops followed: Google "follows at
// least five redirect hops [...] and then stops and treats it as a 404".
const maxRedirects = 5

// An Outcome says which of the cases of Google's specification a fetch fell
// into. The names are those of RFC 9309, section 2.3.1.
type Outcome uint8

const (
	// Success: the server answered 2xx and the body was parsed.
	Success Outcome = iota + 1
	// Unavailable: the server answered 4xx other than 429, or a redirect
	// chain was too long or looped. There is no robots.txt: everything is
	// allowed.
	Unavailable
	// Unreachable: the server answered 429, 5xx or another code, or the
	// fetch failed on the network. For now everything is disallowed.
	Unreachable
)

var outcomeNames = [...]string{Success: "success", Unavailable: "unavailable", Unreachable: "unreachable"}

// String returns the lower-case name of o, such as "unreachable".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) && outcomeNames[o] != "" {
		return outcomeNames[o]
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// A Result is what one fetch of a robots.txt file gave.
type Result struct {
	// URL is the robots.txt URL that was requested.
	URL string
	// Outcome says which case of Google's specification applied.
	Outcome Outcome
	// Robots holds the rules to use now: the parsed file, robots.AllowAll()
	// or robots.DisallowAll(). It is never nil.
	Robots *robots.Robots
	// StatusCode is the HTTP status of the last response, or 0 when the
	// fetch failed on the network: no response, or a 2xx whose body broke
	// off before its end (the status is then no longer what decides).
	StatusCode int
	// Redirects is the number of redirects followed.
	Redirects int
	// FinalURL is the URL of the last response, the file whose lines Robots
	// holds: URL unless a redirect was followed; "" when no response came.
	FinalURL string
	// TTL is how long the result may be used before the file is fetched
	// again: the lifetime of a good file (Success or Unavailable), or the
	// delay before a retry (Unreachable), which a Retry-After field may set.
	TTL time.Duration
	// Body is the body that was parsed into Robots, at most robots.MaxSize
	// bytes; nil unless Outcome is Success.
	Body []byte
	// Truncated reports that the body went on after robots.MaxSize bytes,
	// which were ignored.
	Truncated bool
}

// maxHeaderBytes bounds the response header of a robots.txt fetch made with
// the default client; net/http's own default is 10 MB.
const maxHeaderBytes = 64 << 10

// defaultClient returns the client used when the caller gives none: a
// Guard's (see Guard.Client). Its timeout bounds the whole fetch:
// connection, redirects and body. It is made on first use, from
// http.DefaultTransport as the program has set it by then.
var defaultClient = sync.OnceValue(func() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: guardedTransport()}
})

// guardedTransport returns the transport of defaultClient, which a Transport
// given no base uses for its robots.txt fetches too.
var guardedTransport = sync.OnceValue(func() *http.Transport {
	return (&Guard{}).Transport()
})

// openClient returns the client used when the caller gives none and
// Options.AllowPrivate is set: defaultClient without the Guard.
var openClient = sync.OnceValue(func() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: defaultTransport()}
})

// defaultTransport returns http.DefaultTransport with a bound on the size of
// response headers.
func defaultTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxResponseHeaderBytes = maxHeaderBytes
	return t
}

// defaultOptions holds the defaults that Get uses for TTL.
var defaultOptions = Options{}.withDefaults()

// Get fetches the robots.txt file that governs rawURL, a page URL or the
// robots.txt URL itself, with a GET request carrying the User-Agent header
// userAgent (the crawler's full User-Agent, such as "ExampleBot/1.0
// (+https://example.com/bot)"). A nil client means one with a 30-second
// timeout whose connections go through a Guard: no connection to the
// crawler's own network (loopback, private, link-local addresses ...)
// unless rawURL names such an address itself (see Guard). The redirect
// policy of client is replaced by Google's.
//
// If rawURL is not an absolute http or https URL with a valid host, Get
// returns a nil Result and the error. Otherwise the Result is never nil and
// holds the rules to use. When the fetch failed on the network, the Result is
// Unreachable (everything disallowed) and the error says why, for logging.
// An HTTP error status is not an error: see Result.Outcome.
func Get(ctx context.Context, client *http.Client, userAgent, rawURL string) (*Result, error) {
	robotsURL, err := fetchableURL(rawURL)
	if err != nil {
		return nil, err
	}
	return get(ctx, client, userAgent, robotsURL, &defaultOptions)
}

// fetchableURL returns the robots.txt URL of rawURL if it can be fetched.
func fetchableURL(rawURL string) (string, error) {
	robotsURL, err := robots.URL(rawURL)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(robotsURL, "ftp:") {
		return "", fmt.Errorf("robots: cannot fetch %s: FTP is not supported", robotsURL)
	}
	return robotsURL, nil
}

// untilDone returns what f returns, or, if ctx ends first, what late
// returns: f goes on alone and its answer is dropped.
func untilDone[T any](ctx context.Context, f, late func() (T, error)) (T, error) {
	type reply struct {
		v   T
		err error
	}
	replied := make(chan reply, 1)
	go func() {
		v, err := f()
		replied <- reply{v, err}
	}()
	select {
	case r := <-replied:
		return r.v, r.err
	case <-ctx.Done():
		// f may have ended at the same moment: prefer its answer.
		select {
		case r := <-replied:
			return r.v, r.err
		default:
		}
		return late()
	}
}

// get fetches robotsURL, which fetchableURL returned, and computes the TTL of
// the result with o. It returns when ctx ends, whatever the client does: a
// transport that loses the request's context (and so its deadline) cannot
// hold the caller; its fetch goes on alone, and its result is dropped.
func get(ctx context.Context, client *http.Client, userAgent, robotsURL string, o *Options) (*Result, error) {
	if ctx.Done() == nil {
		return getNow(ctx, client, userAgent, robotsURL, o)
	}
	return untilDone(ctx, func() (*Result, error) {
		return getNow(ctx, client, userAgent, robotsURL, o)
	}, func() (*Result, error) {
		res := &Result{URL: robotsURL}
		return res.unreachable(o), fmt.Errorf("robots: fetching %s: %w", robotsURL, context.Cause(ctx))
	})
}

// getNow is get, in the caller's goroutine.
func getNow(ctx context.Context, client *http.Client, userAgent, robotsURL string, o *Options) (*Result, error) {
	res := &Result{URL: robotsURL}
	req, err := http.NewRequestWithContext(withIntranet(ctx, robotsURL), http.MethodGet, robotsURL, nil)
	if err != nil {
		return res.unreachable(o), fmt.Errorf("robots: %w", err)
	}
	req.Header.Set("User-Agent", userAgent)

	if client == nil {
		client = defaultClient()
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects || revisits(req, via) {
			// Stop and keep the 3xx response: FromStatus makes it allow
			// all, as a 404.
			return http.ErrUseLastResponse
		}
		res.Redirects = len(via)
		return nil
	}
	resp, err := c.Do(req)
	if err != nil {
		return res.unreachable(o), fmt.Errorf("robots: %w", err)
	}
	defer resp.Body.Close()
	res.StatusCode, res.FinalURL = resp.StatusCode, resp.Request.URL.String()

	var body []byte
	if res.Outcome = outcome(resp.StatusCode); res.Outcome == Success {
		// The rest of a longer body is ignored; an error before MaxSize
		// bytes (a reset, a short or badly chunked body) is a server error.
		body, err = io.ReadAll(io.LimitReader(resp.Body, robots.MaxSize))
		if err != nil {
			return res.unreachable(o), fmt.Errorf("robots: reading %s: %w", resp.Request.URL, err)
		}
		res.Body = body
		if len(body) == robots.MaxSize {
			var one [1]byte
			n, _ := io.ReadFull(resp.Body, one[:])
			res.Truncated = n > 0
		}
	}
	res.Robots = robots.FromStatus(resp.StatusCode, body)
	if res.Outcome == Unreachable {
		res.TTL = o.retry(resp.StatusCode)
		if after, ok := retryAfter(resp.Header, o.Now()); ok && retriesAfter(resp.StatusCode) {
			res.TTL = min(max(after, o.MinLifetime), o.DisallowFor)
		}
	} else {
		res.TTL = o.lifetime(resp.Header)
	}
	return res, nil
}

// unreachable makes res the result of a fetch that failed on the network:
// status 0, even when a response had begun.
func (res *Result) unreachable(o *Options) *Result {
	res.Outcome = Unreachable
	res.StatusCode = 0
	res.Robots = robots.DisallowAll()
	res.TTL = o.retry(0)
	return res
}

// revisits reports whether req, about to follow a redirect, asks for a URL
// already requested in via: a redirect loop.
func revisits(req *http.Request, via []*http.Request) bool {
	u := req.URL.String()
	for _, r := range via {
		if r.URL.String() == u {
			return true
		}
	}
	return false
}

// outcome returns the case of a final response with status code. It draws
// the lines that robots.FromStatus draws (TestOutcomeAgreesWithFromStatus).
func outcome(code int) Outcome {
	switch {
	case 200 <= code && code <= 299:
		return Success
	case 300 <= code && code <= 499 && code != http.StatusTooManyRequests:
		return Unavailable
	}
	return Unreachable
}

// maxAge returns the value of the max-age directive of the Cache-Control
// fields of h (RFC 9111, section 5.2.2.1), and whether there is a valid one:
//
//	max-age = "max-age" "=" delta-seconds   ; the quoted form is accepted
//
// A value too large to represent counts as 2^31 seconds (RFC 9111, section
// 1.2.2).
func maxAge(h http.Header) (time.Duration, bool) {
	for _, field := range h.Values("Cache-Control") {
		for directive := range strings.SplitSeq(field, ",") {
			name, value, _ := strings.Cut(directive, "=")
			if !strings.EqualFold(strings.TrimSpace(name), "max-age") {
				continue
			}
			value = strings.TrimSpace(value)
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			secs, err := strconv.ParseUint(value, 10, 32)
			if errors.Is(err, strconv.ErrRange) || secs > 1<<31 {
				secs, err = 1<<31, nil
			}
			if err != nil {
				continue
			}
			return time.Duration(secs) * time.Second, true
		}
	}
	return 0, false
}

// retriesAfter reports whether a Retry-After field is read after status
// code: 429 Too Many Requests and 503 Service Unavailable.
func retriesAfter(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable
}

// retryAfter returns the delay that the Retry-After field of h asks for,
// counted from now, and whether there is a valid one (RFC 9110, section
// 10.2.3):
//
//	Retry-After = HTTP-date / delay-seconds
//
// A date in the past is a delay of zero.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	value := strings.TrimSpace(h.Get("Retry-After"))
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(secs) * time.Second, true
	} else if errors.Is(err, strconv.ErrRange) {
		return 1 << 31 * time.Second, true
	}
	date, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(date.Sub(now), 0), true
}
