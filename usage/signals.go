package usage

// The page itself: its response header and head, fetched as robots.txt
// allows (fetch.Cache.GetPage), completing the answer Ask gave before.

import (
	"context"
	"mime"
	"net/http"
	"strings"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
)

// SignalsResult is what Signals saw of a page and its site.
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
// product token is agent, with a Cache of its own: Signals(ctx,
// fetch.NewCache(client, userAgent, fetch.Options{}), agent, pageURL). A
// crawler that asks about many pages keeps one Cache and calls Signals,
// which fetches each site's files once.
func GetSignals(ctx context.Context, client *http.Client, userAgent, agent, pageURL string) (*SignalsResult, error) {
	return Signals(ctx, fetch.NewCache(client, userAgent, fetch.Options{}), agent, pageURL)
}

// Signals answers each use of pageURL by the crawler whose product token is
// agent: Ask, then, only if robots.txt allows agent to fetch it, the page
// itself, fetched with c's client and User-Agent header
// (fetch.Cache.GetPage), of which it reads the header and, for HTML, the
// first signals.DefaultHeadLimit bytes: the head, then the body for meta
// tags misplaced there, which are reported (signals.ReadHeadScan). Each
// redirect hop is checked against its robots.txt as the page was; a hop it
// disallows is not followed, and the page's signals are then unseen.
// Errors of the page fetch are reported in the Decision's problems; the
// error is Ask's.
func Signals(ctx context.Context, c *fetch.Cache, agent, pageURL string) (*SignalsResult, error) {
	p, err := Ask(ctx, c, agent, pageURL)
	if err != nil {
		return nil, err
	}
	out := &SignalsResult{Decision: p.Decision}
	if p.Decision.Uses.Fetch.Answer != signals.Allow {
		return out, nil
	}
	resp, err := c.GetPage(ctx, p.agent, pageURL)
	if resp != nil {
		out.PageStatus = resp.StatusCode
	}
	var h http.Header
	var head *signals.Head
	if err == nil {
		h, head, err = readResponse(resp, out)
	}
	if err != nil {
		p.problems = append(p.problems, "page: "+err.Error())
	}
	out.Decision = p.Complete(h, head)
	return out, nil
}

// readResponse reads the header of resp and, for HTML, its head, and
// closes its body.
func readResponse(resp *http.Response, out *SignalsResult) (http.Header, *signals.Head, error) {
	defer resp.Body.Close()
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
