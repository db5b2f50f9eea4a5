package fetch

// Fetching the signals beyond robots.txt (package signals): a site's
// /.well-known/tdmrep.json, and a page's response header and head.

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/signals"
)

// TDMRepResult is the outcome of fetching a site's tdmrep.json.
type TDMRepResult struct {
	// URL is the tdmrep.json URL fetched.
	URL string
	// StatusCode is the final HTTP status, 0 if there was no response.
	StatusCode int
	// File is the parsed file; nil when the site has none (any status
	// but 2xx: "failure to provide access to such a representation implies
	// that the origin server does not implement this protocol", TDMRep) or
	// when it could not be read.
	File *signals.TDMRep
	// Problem says why a 2xx body was not read (too large, not JSON); nil
	// otherwise.
	Problem error
	// TTL is how long the result may be kept: the robots.txt lifetime
	// policy (Options), applied to this file.
	TTL time.Duration
}

// TDMRepURL returns the tdmrep.json URL of the origin of pageURL.
func TDMRepURL(pageURL string) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("tdmrep: %q is not an absolute http or https URL", pageURL)
	}
	return u.Scheme + "://" + u.Host + "/.well-known/tdmrep.json", nil
}

// GetTDMRep fetches the tdmrep.json of the origin of pageURL with the
// User-Agent header userAgent, reading at most signals.MaxTDMRepSize
// bytes, following redirects as Get does. It fetches the origin's
// robots.txt first (Get), and fetches tdmrep.json only where those rules
// allow the crawler userAgent names: otherwise (a Disallow, or a robots.txt
// that answered 429, 5xx or not at all) the Result has status 0 and the
// error is a *DisallowedError, which matches ErrDisallowed. A network
// failure is returned as the error, with a Result of status 0; an HTTP
// error status is not an error.
func GetTDMRep(ctx context.Context, client *http.Client, userAgent, pageURL string) (*TDMRepResult, error) {
	tu, err := TDMRepURL(pageURL)
	if err != nil {
		return nil, err
	}
	rr, err := Get(ctx, client, userAgent, pageURL)
	if rr == nil {
		return nil, err
	}
	if err := wellKnownAllowed(rr.Robots, wellKnownAgent(userAgent), tu); err != nil {
		return &TDMRepResult{URL: tu, TTL: defaultOptions.retry(0)}, err
	}
	return getTDMRep(ctx, client, userAgent, pageURL, &defaultOptions)
}

// wellKnownAgent returns the token whose rules govern the fetches of
// well-known files by the crawler whose User-Agent header is userAgent:
// its product token, or "*" if it names none.
func wellKnownAgent(userAgent string) string {
	if agent, err := agentToken(userAgent); err == nil {
		return agent
	}
	return "*"
}

// wellKnownAllowed returns nil if the rules r let agent fetch fileURL, a
// well-known file of the site (RFC 9309 exempts only /robots.txt itself),
// and otherwise the *DisallowedError that refuses it.
func wellKnownAllowed(r *robots.Robots, agent, fileURL string) error {
	if d := r.Decide(agent, fileURL); !d.Allowed {
		return &DisallowedError{URL: fileURL, Agent: agent, Decision: d}
	}
	return nil
}

func getTDMRep(ctx context.Context, client *http.Client, userAgent, pageURL string, o *Options) (*TDMRepResult, error) {
	tu, err := TDMRepURL(pageURL)
	if err != nil {
		return nil, err
	}
	res := &TDMRepResult{URL: tu, TTL: o.retry(0)}
	resp, err := getWithAgent(ctx, client, userAgent, tu)
	if err != nil {
		return res, fmt.Errorf("tdmrep: %w", err)
	}
	defer resp.Body.Close()
	res.StatusCode = resp.StatusCode
	res.TTL = o.lifetime(resp.Header)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return res, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, signals.MaxTDMRepSize+1))
	if err != nil {
		res.TTL = o.retry(0)
		return res, fmt.Errorf("tdmrep: reading %s: %w", tu, err)
	}
	res.File, res.Problem = signals.ParseTDMRep(body)
	return res, nil
}

// getWithAgent GETs u with the User-Agent header, with client (or the
// default client, whose Guard lets u reach the crawler's own network only
// if u names such an address itself) and at most maxRedirects redirects.
func getWithAgent(ctx context.Context, client *http.Client, userAgent, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(withIntranet(ctx, u), http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", userAgent)
	if client == nil {
		client = defaultClient()
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects || revisits(req, via) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	return c.Do(req)
}

// SignalsResult is what GetSignals saw of a page and its site.
type SignalsResult struct {
	// Decision is the answer for each use.
	Decision signals.Decision
	// PageStatus is the page's HTTP status; 0 when it was not fetched
	// (robots.txt disallows it, or the fetch failed).
	PageStatus int
	// ContentType is the page's media type.
	ContentType string
}

// GetSignals fetches what bears on the uses of pageURL by the crawler whose
// product token is agent, with a Cache of its own: NewCache(client,
// userAgent, Options{}).Signals. A crawler that asks about many pages
// keeps one Cache and calls its Signals, which fetches each site's files
// once.
func GetSignals(ctx context.Context, client *http.Client, userAgent, agent, pageURL string) (*SignalsResult, error) {
	return NewCache(client, userAgent, Options{}).Signals(ctx, agent, pageURL)
}

// Signals answers each use of pageURL by the crawler whose product token is
// agent: Page, then, only if robots.txt allows agent to fetch it, the page
// itself, fetched with the Cache's client and User-Agent header, of which it
// reads the header and, for HTML, the first signals.DefaultHeadLimit bytes:
// the head, then the body for meta tags misplaced there, which are reported
// (signals.ReadHeadScan). Each redirect hop is checked against its
// robots.txt as the page was; a hop it disallows is not followed, and the
// page's signals are then unseen. Errors of the page fetch are reported in
// the Decision's problems; the error is Page's.
func (c *Cache) Signals(ctx context.Context, agent, pageURL string) (*SignalsResult, error) {
	p, err := c.Page(ctx, agent, pageURL)
	if err != nil {
		return nil, err
	}
	out := &SignalsResult{Decision: p.Decision}
	if p.Decision.Uses.Fetch.Answer != signals.Allow {
		return out, nil
	}
	h, head, err := c.readPage(ctx, p.agent, pageURL, out)
	if err != nil {
		p.problems = append(p.problems, "page: "+err.Error())
	}
	out.Decision = p.Complete(h, head)
	return out, nil
}

// readPage fetches the page and returns its header and, for HTML, its
// head; a nil header when no response came or a redirect was refused.
func (c *Cache) readPage(ctx context.Context, agent, pageURL string, out *SignalsResult) (http.Header, *signals.Head, error) {
	req, err := http.NewRequestWithContext(withIntranet(ctx, pageURL), http.MethodGet, pageURL, nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("User-Agent", c.userAgent)
	client := c.client
	switch {
	case client != nil:
	case c.opts.AllowPrivate:
		client = openClient()
	default:
		client = defaultClient()
	}
	cl := *client
	var refused error
	cl.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects || revisits(req, via) {
			return http.ErrUseLastResponse
		}
		d, err := c.Decide(req.Context(), agent, req.URL.String())
		if err == nil && !d.Allowed {
			err = &DisallowedError{URL: req.URL.String(), Agent: agent, Decision: d}
		}
		if err != nil {
			refused = fmt.Errorf("redirect to %s not followed: %w", req.URL, err)
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, err := cl.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out.PageStatus = resp.StatusCode
	if refused != nil {
		return nil, nil, refused
	}
	out.ContentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if !isHTML(out.ContentType) {
		return resp.Header, nil, nil
	}
	head, err := signals.ReadHeadScan(resp.Body, 0)
	return resp.Header, head, err
}

// isHTML reports whether the media type is HTML, or unknown.
func isHTML(mt string) bool {
	return mt == "" || mt == "text/html" || mt == "application/xhtml+xml" || strings.HasSuffix(mt, "+html")
}
