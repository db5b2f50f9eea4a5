package main

// A training crawler: the same Colly collector, through usage.Transport
// with the purpose ai-train, skips the URLs the site's tdmrep.json
// reserves before requesting them, and refuses the pages whose answer for
// training is deny (a noai meta tag, an X-Robots-Tag: noml header), so that
// their bodies never reach the collector.

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"sync"

	"github.com/gocolly/colly/v2"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// trainPages are the pages of the training demo site: links, and the
// signals each sends.
var trainPages = map[string]struct {
	links  []string
	meta   string // robots meta content, "" for none
	header string // X-Robots-Tag, "" for none
}{
	"/":           {links: []string{"/articles/1", "/blog/ok", "/blog/noai", "/blog/noml"}},
	"/articles/1": {links: []string{"/blog/ok"}}, // reserved by tdmrep.json
	"/blog/ok":    {links: []string{"/"}},
	"/blog/noai":  {meta: "noai"},
	"/blog/noml":  {header: "noml"},
}

// trainTDMRep is the training site's tdmrep.json.
const trainTDMRep = `[{"location": "/articles/", "tdm-reservation": 1}]`

// newTrainSite starts the training demo site.
func newTrainSite() *site {
	s := &site{requests: make(map[string]int)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests[r.URL.Path]++
		s.mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
			return
		case "/.well-known/tdmrep.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, trainTDMRep)
			return
		}
		p, ok := trainPages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.header != "" {
			w.Header().Set("X-Robots-Tag", p.header)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head>")
		if p.meta != "" {
			fmt.Fprintf(w, "<meta name=\"robots\" content=%q>", p.meta)
		}
		fmt.Fprintf(w, "</head><body><h1>%s</h1>\n", r.URL.Path)
		for _, l := range p.links {
			fmt.Fprintf(w, "<a href=%q>%s</a>\n", l, l)
		}
		fmt.Fprint(w, "</body></html>\n")
	}))
	return s
}

// A trainReport is what a training crawl did.
type trainReport struct {
	Kept    []string // paths whose bodies the crawler got, sorted
	Skipped []string // "path: why", refused before or after fetching, sorted
}

// crawlForTraining crawls the site of start for training data.
func crawlForTraining(start string, base http.RoundTripper) (trainReport, error) {
	var rep trainReport
	u, err := url.Parse(start)
	if err != nil {
		return rep, err
	}
	t, err := fetch.NewTransport(base, userAgent, fetch.TransportOptions{})
	if err != nil {
		return rep, err
	}
	ut, err := usage.NewTransport(t, usage.Options{Purposes: []signals.Use{signals.UseAITrain}, RefuseBody: true})
	if err != nil {
		return rep, err
	}
	c := colly.NewCollector(colly.AllowedDomains(u.Hostname()), colly.UserAgent(userAgent), colly.IgnoreRobotsTxt())
	c.WithTransport(ut)
	var mu sync.Mutex
	c.OnResponse(func(r *colly.Response) {
		mu.Lock()
		rep.Kept = append(rep.Kept, r.Request.URL.Path)
		mu.Unlock()
	})
	c.OnError(func(r *colly.Response, err error) {
		var de *usage.DeniedError
		if errors.As(err, &de) {
			when := "body refused"
			if de.BeforeFetch {
				when = "not fetched"
			}
			by := de.Decision.Uses.AITrain.By[0]
			mu.Lock()
			rep.Skipped = append(rep.Skipped, r.Request.URL.Path+": "+when+", "+by.Signal+" "+by.Detail)
			mu.Unlock()
		}
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	if err := c.Visit(start); err != nil {
		return rep, err
	}
	sort.Strings(rep.Kept)
	sort.Strings(rep.Skipped)
	return rep, nil
}

// print writes the report.
func (rep trainReport) print(w io.Writer) {
	fmt.Fprintf(w, "training: kept %d: %v\n", len(rep.Kept), rep.Kept)
	for _, s := range rep.Skipped {
		fmt.Fprintf(w, "training: skipped %s\n", s)
	}
}
