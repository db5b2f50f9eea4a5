// Package usage answers, for a crawler, every use of a URL (package
// signals: fetch, index, snippet, ai-input, ai-train) from what its site
// says of all its pages, before the page is fetched, and from the page's
// response after. It is built on package fetch, whose Cache keeps the
// site's files (robots.txt and tdmrep.json), each fetched once per origin
// with robots.txt's failure policy, and shared through its Store by a
// fleet; and on package signals, which reads and decides.
//
// Ask is the one call per URL: it returns a Page, whose Decision is the
// answer before the fetch; Page.Complete adds the response's headers and
// head. Signals fetches the page too (GetSignals with a Cache of its own),
// and a Transport wraps a fetch.Transport for a crawler with purposes: it
// skips a URL, or refuses a body, whose answer for one of them is deny,
// and attaches the Decision to each response (DecisionOf).
package usage

import (
	"context"
	"errors"
	"net/http"

	"github.com/gorep/robots/fetch"
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

// Ask returns the answer for each use of pageURL by the crawler whose
// product token is agent (several, for a crawler that obeys them, spelled
// with commas: "googlebot-news,googlebot"; their groups merged), before
// the page is fetched: from the robots.txt that governs it and its site's
// tdmrep.json, each fetched once per origin and kept by c (fetch.Cache.Site,
// see TDMRep).
// tdmrep.json is not fetched where robots.txt does not allow agent to
// fetch it, and a tdmrep.json that cannot be had is no file: the
// Decision's problems say why. The errors are those of fetch.Cache.Allowed.
func Ask(ctx context.Context, c *fetch.Cache, agent, pageURL string) (*Page, error) {
	site, err := c.Site(ctx, agent, pageURL, tdmRepFile)
	if err != nil {
		return nil, err
	}
	file, problems, err := tdmRep(site.Files[0])
	switch {
	case errors.Is(err, fetch.ErrDisallowed):
		problems = append(problems, "tdmrep.json not fetched: "+err.Error())
	case err != nil && ctx.Err() != nil:
		return nil, err
	case err != nil: // no answer in time: no file is known
		problems = append(problems, "tdmrep.json: "+err.Error())
	}
	p := &Page{url: pageURL, agent: site.Agent, problems: problems,
		seen: signals.Seen{Robots: site.Robots, TDMRep: file, Now: c.Now()}}
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
