package fetch

// One door for a URL: Cache.Page answers every use of a page (package
// signals: fetch, index, snippet, ai-input, ai-train) before it is
// fetched, from what its site says of all its pages, kept per origin by
// the Cache; Page.Complete adds what the response says. The Transport's
// UsageTransport, GetSignals and the command line all go through it.

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/gorep/robots/signals"
)

// A Page is what a Cache knows of one URL for one crawler before the page
// is fetched.
type Page struct {
	// Decision is the answer for each use before the fetch: robots.txt
	// (its rules, its Content-Signal and Content-Usage lines) and the
	// site's tdmrep.json; the page's own signals are unseen.
	Decision signals.Decision
	url      string
	agent    string
	seen     signals.Seen
	problems []string // of the site's files, first in every Decision
}

// Page returns the answer for each use of pageURL by the crawler whose
// product token is agent (several, for a crawler that obeys them, spelled
// with commas: "googlebot-news,googlebot"; their groups merged), before
// the page is fetched: from the robots.txt
// that governs it and its site's tdmrep.json, each fetched once per origin
// and kept (see Cache and TDMRep). tdmrep.json is not fetched where
// robots.txt does not allow agent to fetch it, and a tdmrep.json that
// cannot be had is no file: the Decision's problems say why. The errors
// are those of Allowed.
func (c *Cache) Page(ctx context.Context, agent, pageURL string) (*Page, error) {
	tokens, err := crawlerTokens(agent)
	if err != nil {
		return nil, err
	}
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	token := strings.Join(tokens, ",") // as signals.Decide reads several
	p := &Page{url: pageURL, agent: token, seen: signals.Seen{Robots: r, Now: c.opts.Now()}}
	file, problems, err := c.TDMRep(ctx, token, pageURL)
	switch {
	case errors.Is(err, ErrDisallowed):
		problems = append(problems, "tdmrep.json not fetched: "+err.Error())
	case err != nil && ctx.Err() != nil:
		return nil, err
	case err != nil: // no answer in time: no file is known
		problems = append(problems, "tdmrep.json: "+err.Error())
	}
	p.seen.TDMRep, p.problems = file, problems
	p.Decision = p.decide(p.seen)
	return p, nil
}

// Complete returns the answer for each use once the page's response has
// come: its header h (nil: not seen) and, for HTML, its head (nil: not
// read), read with signals.ReadHead or ReadHeadScan.
func (p *Page) Complete(h http.Header, head *signals.Head) signals.Decision {
	seen := p.seen
	seen.Header, seen.Head = h, head
	return p.decide(seen)
}

// decide returns the Decision on what seen holds, with the problems of the
// site's files first.
func (p *Page) decide(seen signals.Seen) signals.Decision {
	d := signals.Decide(p.url, p.agent, seen)
	if len(p.problems) > 0 {
		d.Problems = append(append([]string(nil), p.problems...), d.Problems...)
	}
	return d
}
