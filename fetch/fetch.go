package fetch

import (
	"context"
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
	if !isRobotsURL(robotsURL) {
		body = nil // a well-known file, parsed by the Cache (State.goodCopy)
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
