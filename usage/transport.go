package usage

// A transport that knows what the crawler fetches for (package signals):
// it answers, for each response, every use of the page (Ask, then
// Page.Complete), and can skip a URL, or refuse a body, whose answer for
// one of the crawler's purposes is deny.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
)

// ErrDenied is the error, wrapped in a *DeniedError, with which a
// Transport refuses a URL or a body whose answer for one of its
// purposes is deny.
var ErrDenied = errors.New("signals: denied for this purpose")

// A DeniedError says which signals deny the crawler's purpose.
type DeniedError struct {
	URL string
	// Purpose is the first of the purposes denied.
	Purpose signals.Use
	// BeforeFetch reports whether the URL was refused before any request
	// for it was sent (by tdmrep.json or robots.txt's Content-Signal and
	// Content-Usage lines), rather than its body after the response came.
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

// Options tune a Transport.
type Options struct {
	// Purposes are what the crawler fetches for, each one of
	// signals.AllUses, such as signals.UseAITrain; none: nothing is
	// refused, decisions are still made. NewTransport refuses any
	// other value (a typo such as "ai_train" would refuse nothing).
	Purposes []signals.Use
	// RefuseBody makes RoundTrip refuse a response whose answer for a
	// purpose is deny (from its headers or head), closing its body and
	// returning a *DeniedError. Without it the response is returned and
	// DecisionOf tells the caller.
	RefuseBody bool
	// Decided, if set, is called with each response and its Decision
	// before RoundTrip returns it (or refuses it).
	Decided func(resp *http.Response, d signals.Decision)
	// HeadLimit bounds the bytes of an HTML body read for its head, kept
	// and handed back with the body; 0 means signals.DefaultHeadLimit.
	HeadLimit int64
}

// A Transport wraps a fetch.Transport (which obeys robots.txt) for a
// crawler with purposes. For each request it first refuses, as the
// fetch.Transport would (fetch.Transport.Check: a *fetch.DisallowedError),
// a URL robots.txt disallows; then asks what the site says before any
// fetch (Ask: robots.txt's Content-Signal and Content-Usage lines,
// tdmrep.json, fetched once per origin by the fetch.Transport's Cache): if
// the answer for a purpose is deny,
// the URL is skipped with a *DeniedError and no request is sent. Otherwise
// it sends the request through the fetch.Transport, reads the response's headers
// and the head of an HTML body, and attaches the Decision to the response
// (DecisionOf). It is safe for concurrent use.
type Transport struct {
	t    *fetch.Transport
	opts Options
}

// NewTransport returns a Transport over t, or an error if a purpose of
// opts is not one of signals.AllUses.
func NewTransport(t *fetch.Transport, opts Options) (*Transport, error) {
	for _, p := range opts.Purposes {
		if !slices.Contains(signals.AllUses, p) {
			return nil, fmt.Errorf("signals: unknown purpose %q: the uses are %v", p, signals.AllUses)
		}
	}
	return &Transport{t: t, opts: opts}, nil
}

// RoundTrip skips a URL the site denies for a purpose before fetching it,
// and otherwise fetches it through the fetch.Transport and attaches the
// Decision to the response.
func (u *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	checked, err := u.t.Check(req)
	switch {
	case !checked:
		return u.t.RoundTrip(req) // unchecked, with the crawler's User-Agent
	case err != nil:
		// The hop guard, or robots.txt, refuses: whatever the purpose, no
		// other file of the site is fetched for it.
		closeBody(req)
		return nil, err
	}
	page := req.URL.String()
	p, err := Ask(req.Context(), u.t.Cache(), u.t.Agent(), page)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if use := u.denied(p.Decision); use != "" {
		closeBody(req)
		return nil, &DeniedError{URL: page, Purpose: use, BeforeFetch: true, Decision: p.Decision}
	}
	resp, err := u.t.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	var head *signals.Head
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); isHTML(mt) && resp.Body != nil && req.Method != http.MethodHead {
		var kept bytes.Buffer
		limit := u.opts.HeadLimit
		if limit <= 0 {
			limit = signals.DefaultHeadLimit
		}
		head, err = signals.ReadHead(io.TeeReader(resp.Body, &kept), limit)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(&kept, resp.Body), resp.Body}
	}
	d := p.Complete(resp.Header, head)
	if u.opts.Decided != nil {
		u.opts.Decided(resp, d)
	}
	if use := u.denied(d); u.opts.RefuseBody && use != "" {
		resp.Body.Close()
		return nil, &DeniedError{URL: page, Purpose: use, Decision: d}
	}
	attach(resp, d)
	return resp, nil
}

// denied returns the first purpose d denies, or "".
func (u *Transport) denied(d signals.Decision) signals.Use {
	for _, p := range u.opts.Purposes {
		if d.Uses.Get(p).Answer == signals.Deny {
			return p
		}
	}
	return ""
}

// decisions holds the Decision of each response a Transport returned,
// until the response is garbage: keyed by the response itself, which an
// http.Client hands back as it is (with a Timeout, it wraps the body, not
// the response), so that DecisionOf finds it whatever the client did.
var decisions sync.Map // weak.Pointer[http.Response] -> signals.Decision

// attach records d as the Decision of resp.
func attach(resp *http.Response, d signals.Decision) {
	k := weak.Make(resp)
	decisions.Store(k, d)
	runtime.AddCleanup(resp, func(k weak.Pointer[http.Response]) { decisions.Delete(k) }, k)
}

// DecisionOf returns the Decision a Transport attached to resp, and
// whether there is one. It finds it through an http.Client with a Timeout
// too.
func DecisionOf(resp *http.Response) (signals.Decision, bool) {
	if resp == nil {
		return signals.Decision{}, false
	}
	d, ok := decisions.Load(weak.Make(resp))
	if !ok {
		return signals.Decision{}, false
	}
	return d.(signals.Decision), true
}

// closeBody closes the body of a request not sent, as a RoundTripper
// must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
