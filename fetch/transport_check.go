package fetch

// What a Transport refuses before it sends a request, for a transport
// built over it (package usage) to ask before it fetches anything else.

import "net/http"

// Check returns the error with which RoundTrip would refuse req before
// sending it: a redirect hop to a guarded address (see Guard), a URL that
// robots.txt disallows (a *DisallowedError), a URL the Cache cannot check;
// nil if RoundTrip would send it (after its polite turn, if t waits for
// one). checked is false, and the error nil, for a request that RoundTrip
// passes through unchecked: not http or https, a request for /robots.txt,
// or a robots.txt fetch of t's Cache. Check does not close req's body.
func (t *Transport) Check(req *http.Request) (checked bool, err error) {
	if passesThrough(req) {
		return false, nil
	}
	if t.guardHops {
		if err := hopRefusal(req); err != nil { // before the hop's robots.txt is asked for
			return true, err
		}
	}
	robotsURL, r, err := t.cache.robotsOfURL(req.Context(), req.URL)
	if err != nil {
		return true, err
	}
	if d := decide(r, t.agent, req.URL); !d.Allowed {
		return true, t.refusal(req.URL.String(), d, robotsURL, r)
	}
	return true, nil
}

// closeBody closes the body of a request not sent, as a RoundTripper
// must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
