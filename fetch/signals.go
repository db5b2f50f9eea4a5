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
	// body is the file read, for a shared Store.
	body []byte
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
// bytes, following redirects as Get does. A network failure is returned
// as the error, with a Result of status 0; an HTTP error status is not an
// error.
func GetTDMRep(ctx context.Context, client *http.Client, userAgent, pageURL string) (*TDMRepResult, error) {
	return getTDMRep(ctx, client, userAgent, pageURL, &defaultOptions)
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
	if res.File != nil {
		res.body = body
	}
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
	// Robots is the robots.txt fetch.
	Robots *Result
	// TDMRep is the tdmrep.json fetch; nil if it failed on the network.
	TDMRep *TDMRepResult
	// PageStatus is the page's HTTP status; 0 when it was not fetched
	// (robots.txt disallows it, or the fetch failed).
	PageStatus int
	// ContentType is the page's media type.
	ContentType string
}

// GetSignals fetches what bears on the uses of pageURL by the crawler whose
// product token is agent: the robots.txt that governs it, its site's
// tdmrep.json, and, only if robots.txt allows agent to fetch it, the page
// itself, of which it reads the header and, for HTML, the first
// signals.DefaultHeadLimit bytes: the head, then the body for meta tags
// misplaced there, which are reported (signals.ReadHeadScan). The fetches carry the User-Agent
// header userAgent. Errors of the tdmrep.json and page fetches are
// reported in the Decision's problems; the error is for a URL that cannot
// be fetched at all.
func GetSignals(ctx context.Context, client *http.Client, userAgent, agent, pageURL string) (*SignalsResult, error) {
	rr, err := Get(ctx, client, userAgent, pageURL)
	if rr == nil {
		return nil, err
	}
	out := &SignalsResult{Robots: rr}
	seen := signals.Seen{Robots: rr.Robots}
	var problems []string
	if err != nil {
		problems = append(problems, err.Error())
	}
	tr, err := GetTDMRep(ctx, client, userAgent, pageURL)
	switch {
	case err != nil:
		problems = append(problems, err.Error())
	case tr.Problem != nil:
		problems = append(problems, tr.URL+": "+tr.Problem.Error())
	}
	if tr != nil {
		out.TDMRep, seen.TDMRep = tr, tr.File
		if tr.File != nil {
			for _, p := range tr.File.Problems {
				problems = append(problems, tr.URL+": "+p)
			}
		}
	}
	if signals.Decide(pageURL, agent, seen).Uses.Fetch.Answer == signals.Allow { // agent may list tokens (signals.Decide)
		if err := readPage(ctx, client, userAgent, pageURL, out, &seen); err != nil {
			problems = append(problems, "page: "+err.Error())
		}
	}
	out.Decision = signals.Decide(pageURL, agent, seen)
	out.Decision.Problems = append(problems, out.Decision.Problems...)
	return out, nil
}

// readPage fetches the page and reads its header and, for HTML, its head.
func readPage(ctx context.Context, client *http.Client, userAgent, pageURL string, out *SignalsResult, seen *signals.Seen) error {
	resp, err := getWithAgent(ctx, client, userAgent, pageURL)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out.PageStatus = resp.StatusCode
	seen.Header = resp.Header
	out.ContentType, _, _ = mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if !isHTML(out.ContentType) {
		return nil
	}
	seen.Head, err = signals.ReadHeadScan(resp.Body, 0)
	return err
}

// isHTML reports whether the media type is HTML, or unknown.
func isHTML(mt string) bool {
	return mt == "" || mt == "text/html" || mt == "application/xhtml+xml" || strings.HasSuffix(mt, "+html")
}
