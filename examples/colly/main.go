// Command colly crawls a small demo site with Colly, obeying its robots.txt
// as Google's crawlers read it through fetch.Transport, and waiting its
// Crawl-delay between requests. It prints the pages fetched and refused, and
// the time taken against the crawl-delays asked for.
//
// Colly's own robots.txt support (temoto/robotstxt) is left off: the
// transport refuses disallowed URLs before any request is sent, with an
// error that errors.Is(err, fetch.ErrDisallowed) recognises, and it applies
// Google's tie-break (an allow and a disallow rule of equal length: allow).
//
// A second crawl, for training data (train.go), goes through
// usage.Transport with the purpose ai-train: it skips the URLs that
// the site's tdmrep.json reserves without requesting them, and refuses
// pages marked noai or noml.
//
// The crawl never leaves 127.0.0.1: Colly follows links to the demo site's
// host only, and the base transport dials nothing else.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/gorep/robots/fetch"
)

// userAgent is the crawler's User-Agent header; its product token,
// ExampleBot, chooses its group in robots.txt.
const userAgent = "ExampleBot/1.0 (+https://example.com/bot)"

// A report is what a crawl did.
type report struct {
	Fetched []string // paths, in the order fetched
	Refused []string // paths refused by robots.txt, sorted
	Elapsed time.Duration
	// Delays is the time the crawl-delays asked for between the fetches.
	Delays time.Duration
}

func main() {
	s := newSite()
	defer s.Close()
	rep, err := crawl(s.URL+"/", localOnly())
	if err != nil {
		fmt.Fprintln(os.Stderr, "colly:", err)
		os.Exit(1)
	}
	rep.print(os.Stdout)

	ts := newTrainSite()
	defer ts.Close()
	trep, err := crawlForTraining(ts.URL+"/", localOnly())
	if err != nil {
		fmt.Fprintln(os.Stderr, "colly:", err)
		os.Exit(1)
	}
	trep.print(os.Stdout)
}

// crawl crawls the site of start, following its links on its host only,
// through an obeying, polite transport over base.
func crawl(start string, base http.RoundTripper) (report, error) {
	var rep report
	u, err := url.Parse(start)
	if err != nil {
		return rep, err
	}
	transport, err := fetch.NewTransport(base, userAgent, fetch.TransportOptions{Polite: true})
	if err != nil {
		return rep, err
	}
	c := colly.NewCollector(
		colly.AllowedDomains(u.Hostname()),
		colly.UserAgent(userAgent),
		colly.IgnoreRobotsTxt(), // the transport obeys robots.txt
	)
	c.WithTransport(transport)

	c.OnResponse(func(r *colly.Response) { rep.Fetched = append(rep.Fetched, r.Request.URL.Path) })
	c.OnError(func(r *colly.Response, err error) {
		if errors.Is(err, fetch.ErrDisallowed) {
			rep.Refused = append(rep.Refused, r.Request.URL.Path)
		}
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href")) // errors: already visited, off-site, refused
	})

	begin := time.Now()
	if err := c.Visit(start); err != nil {
		return rep, err
	}
	rep.Elapsed = time.Since(begin)
	r, err := transport.Cache().Robots(context.Background(), start)
	if err != nil {
		return rep, err
	}
	delay, _ := r.CrawlDelay(transport.Agent())
	rep.Delays = time.Duration(max(len(rep.Fetched)-1, 0)) * delay
	sort.Strings(rep.Refused)
	return rep, nil
}

// print writes the report.
func (rep report) print(w io.Writer) {
	fmt.Fprintf(w, "fetched %d: %v\n", len(rep.Fetched), rep.Fetched)
	fmt.Fprintf(w, "refused %d: %v\n", len(rep.Refused), rep.Refused)
	fmt.Fprintf(w, "elapsed %v, crawl-delays %v (elapsed >= crawl-delays: %t)\n",
		rep.Elapsed.Round(time.Millisecond), rep.Delays, rep.Elapsed >= rep.Delays)
}

// localOnly returns a transport that dials 127.0.0.1 only, and refuses any
// other address without resolving it.
func localOnly() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if host != "127.0.0.1" {
			return nil, fmt.Errorf("colly example: refusing to dial %s: only 127.0.0.1 is allowed", addr)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	return t
}
