package fetch

// A transport that knows what the crawler fetches for (package signals):
// it answers, for each response, every use of the page, and can skip a
// URL, or refuse a body, whose answer for the crawler's purpose is deny.

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/gorep/robots/signals"
)

// ErrDenied is the error, wrapped in a *DeniedError, with which a
// UsageTransport refuses a URL or a body whose answer for its purpose is
// deny.
var ErrDenied = errors.New("signals: denied for this purpose")

// A DeniedError says which signals deny the crawler's purpose.
type DeniedError struct {
	URL     string
	Purpose signals.Use
	// BeforeFetch reports whether the URL was refused before any request
	// for it was sent (by tdmrep.json or robots.txt), rather than its body
	// after the response came.
	BeforeFetch bool
	Decision    signals.Decision
}

// Error names the purpose and the first signal that denies it.
func (e *DeniedError) Error() string {
	msg := "signals: " + string(e.Purpose) + " denied for " + e.URL
	if by := e.Decision.Uses.Get(e.Purpose).By; len(by) > 0 {
		msg += " by " + by[0].Signal + " (" + by[0].Detail + ")"
	}
	return msg
}

// Is reports whether target is ErrDenied.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

// UsageOptions tune a UsageTransport.
type UsageOptions struct {
	// Purpose is what the crawler fetches for, such as signals.UseAITrain;
	// "" for no purpose: nothing is refused, decisions are still made.
	Purpose signals.Use
	// RefuseBody makes RoundTrip refuse a response whose answer for
	// Purpose is deny (from its headers or head), closing its body and
	// returning a *DeniedError. Without it the response is returned and
	// DecisionOf tells the caller.
	RefuseBody bool
	// Decided, if set, is called with each response and its Decision
	// before RoundTrip returns it (or refuses it): the way to get the
	// Decision when a client wraps response bodies (an http.Client with a
	// Timeout does), where DecisionOf cannot find it.
	Decided func(resp *http.Response, d signals.Decision)
	// HeadLimit bounds the bytes of an HTML body read for its head, kept
	// and handed back with the body; 0 means signals.DefaultHeadLimit.
	HeadLimit int64
}

// A UsageTransport wraps a Transport (which obeys robots.txt) for a
// crawler with a purpose. For each request it first asks what the site
// says before any fetch (robots.txt's Content-Signal and Content-Usage
// lines, tdmrep.json, fetched once per origin and cached): if the answer
// for the purpose is deny, the URL is skipped with a *DeniedError and no
// request is sent. Otherwise it sends the request through the Transport,
// reads the response's headers and the head of an HTML body, and attaches
// the Decision to the response (DecisionOf). It is safe for concurrent
// use.
type UsageTransport struct {
	t    *Transport
	tdm  *TDMRepCache
	opts UsageOptions
}

// NewUsageTransport returns a UsageTransport over t. tdmrep.json is
// fetched as t fetches robots.txt (the same client, so through the same
// Guard) with t's User-Agent, and cached with t's cache policy.
func NewUsageTransport(t *Transport, opts UsageOptions) *UsageTransport {
	return &UsageTransport{t: t, opts: opts, tdm: newTDMRepCache(t.cache, t.cache.client, t.userAgent, t.cache.opts)}
}

// TDMRep returns the cache of tdmrep.json files.
func (u *UsageTransport) TDMRep() *TDMRepCache { return u.tdm }

// RoundTrip skips a URL the site denies for the purpose before fetching
// it, and otherwise fetches it through the Transport and attaches the
// Decision to the response.
func (u *UsageTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if passesThrough(req) {
		return u.t.RoundTrip(req) // unchecked, with the crawler's User-Agent
	}
	ctx := req.Context()
	robotsURL, r, err := u.t.cache.robotsOfURL(ctx, req.URL)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	page := req.URL.String()
	if d := decide(r, u.t.agent, req.URL); !d.Allowed {
		// robots.txt refuses: a *DisallowedError, whatever the purpose,
		// and no other file of the site is fetched for it.
		closeBody(req)
		return nil, u.t.refusal(page, d, robotsURL, r)
	}
	// An unreachable file is no file: nothing reserved is known. One that
	// robots.txt disallows is not fetched.
	file, _ := u.tdm.Get(ctx, page)
	seen := signals.Seen{Robots: r, TDMRep: file}
	if pre := signals.Decide(page, u.t.agent, seen); u.denies(pre) {
		closeBody(req)
		return nil, &DeniedError{URL: page, Purpose: u.opts.Purpose, BeforeFetch: true, Decision: pre}
	}
	resp, err := u.t.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	seen.Header = resp.Header
	body := resp.Body
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); isHTML(mt) && body != nil && req.Method != http.MethodHead {
		var kept bytes.Buffer
		limit := u.opts.HeadLimit
		if limit <= 0 {
			limit = signals.DefaultHeadLimit
		}
		seen.Head, err = signals.ReadHead(io.TeeReader(body, &kept), limit)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(&kept, resp.Body), resp.Body}
	}
	d := signals.Decide(page, u.t.agent, seen)
	if u.opts.Decided != nil {
		u.opts.Decided(resp, d)
	}
	if u.opts.RefuseBody && u.denies(d) {
		resp.Body.Close()
		return nil, &DeniedError{URL: page, Purpose: u.opts.Purpose, Decision: d}
	}
	resp.Body = &decidedBody{ReadCloser: body, decision: d}
	return resp, nil
}

// denies reports whether d denies the purpose.
func (u *UsageTransport) denies(d signals.Decision) bool {
	v := d.Uses.Get(u.opts.Purpose)
	return v != nil && v.Answer == signals.Deny
}

// decidedBody is a response body that carries the response's Decision.
type decidedBody struct {
	io.ReadCloser
	decision signals.Decision
}

// DecisionOf returns the Decision a UsageTransport attached to resp, and
// whether there is one.
func DecisionOf(resp *http.Response) (signals.Decision, bool) {
	if resp == nil {
		return signals.Decision{}, false
	}
	if b, ok := resp.Body.(*decidedBody); ok {
		return b.decision, true
	}
	return signals.Decision{}, false
}

// closeBody closes the body of a request not sent, as a RoundTripper
// must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
