package fetch

// A page fetched as robots.txt allows: Cache.GetPage, for a caller that
// reads what a page says of its uses (package usage) without a Transport.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// GetPage fetches pageURL for the crawler whose product token is agent
// (several, spelled with commas) with the Cache's client and User-Agent
// header: a client given to NewCache, or else one with a Guard (unless
// Options.AllowPrivate), whose connections reach the crawler's own network
// only if pageURL names such an address itself. It returns a
// *DisallowedError and sends nothing if robots.txt disallows pageURL.
// Each redirect hop is checked against its robots.txt as the page was, and
// at most five are followed: a hop robots.txt disallows (or that cannot be
// checked) is not, and GetPage returns the redirect response, its body
// closed, with an error that wraps the refusal, as http.Client.Do does
// when CheckRedirect refuses. The caller closes the body of a response
// returned with a nil error.
func (c *Cache) GetPage(ctx context.Context, agent, pageURL string) (*http.Response, error) {
	tokens, err := crawlerTokens(agent)
	if err != nil {
		return nil, err
	}
	agent = strings.Join(tokens, ",")
	if err := c.allows(ctx, tokens, agent, pageURL); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(withIntranet(ctx, pageURL), http.MethodGet, pageURL, nil)
	if err != nil {
		return nil, err
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
		if err := c.allows(req.Context(), tokens, agent, req.URL.String()); err != nil {
			refused = fmt.Errorf("redirect to %s not followed: %w", req.URL, err)
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, err := cl.Do(req)
	if err != nil {
		return nil, err
	}
	if refused != nil {
		resp.Body.Close()
		return resp, refused
	}
	return resp, nil
}

// allows returns nil if the group of tokens (spelled agent) may fetch
// pageURL, and otherwise a *DisallowedError or the error of Robots.
func (c *Cache) allows(ctx context.Context, tokens []string, agent, pageURL string) error {
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return err
	}
	if d := r.Group(tokens...).Decide(pageURL); !d.Allowed {
		return &DisallowedError{URL: pageURL, Agent: agent, Decision: d}
	}
	return nil
}
