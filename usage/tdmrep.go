package usage

// A site's /.well-known/tdmrep.json (TDMRep, package signals), kept per
// origin by a fetch.Cache as a well-known file: one fetch per file, shared
// through the Store, robots.txt's failure policy, fetched only where
// robots.txt allows the crawler to fetch it.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
)

// tdmRepFile is the kind of file a site's tdmrep.json is, for a fetch.Cache.
var tdmRepFile = &fetch.WellKnown{Path: "/.well-known/tdmrep.json", Parse: parseTDMRep}

// A tdmFile is a tdmrep.json's body, parsed.
type tdmFile struct {
	file    *signals.TDMRep // nil when it was not read
	problem error           // why it was not read (too large, not JSON)
}

// parseTDMRep parses the body of a tdmrep.json answered 2xx.
func parseTDMRep(body []byte) any {
	f := &tdmFile{}
	f.file, f.problem = signals.ParseTDMRep(body)
	if f.problem != nil && len(body) >= signals.MaxTDMRepSize {
		f.problem = signals.ErrTDMRepTooLarge // its first MaxSize bytes were read
	}
	return f
}

// TDMRep returns the tdmrep.json of the origin of pageURL for the crawler
// whose product token is agent, kept by c and fetched first if need be,
// with the problems that bear on it: the file's own (rules skipped), why it
// was not read (too large, not JSON), and, while its fetches fail, since
// when and that the last good copy (nil if none) is used. The file is nil
// when the site has none: any status but 2xx ("failure to provide access
// to such a representation implies that the origin server does not
// implement this protocol", TDMRep).
//
// Where robots.txt does not allow agent to fetch the file (a Disallow, or
// a robots.txt that answered 429, 5xx or not at all), TDMRep returns nil
// and a *fetch.DisallowedError, which matches fetch.ErrDisallowed, and
// fetches nothing but robots.txt. Its other errors are those of
// fetch.Cache.Allowed.
func TDMRep(ctx context.Context, c *fetch.Cache, agent, pageURL string) (*signals.TDMRep, []string, error) {
	site, err := c.Site(ctx, agent, pageURL, tdmRepFile)
	if err != nil {
		return nil, nil, err
	}
	return tdmRep(site.Files[0])
}

// tdmRep returns the tdmrep.json that f holds, with its problems, as
// TDMRep does.
func tdmRep(f *fetch.File) (*signals.TDMRep, []string, error) {
	if f.Err != nil {
		return nil, nil, f.Err
	}
	var problems []string
	if f.Problem != "" {
		problems = append(problems, f.URL+": "+f.Problem)
	}
	tdm, _ := f.Parsed.(*tdmFile)
	if tdm == nil {
		return nil, problems, nil
	}
	if tdm.problem != nil {
		problems = append(problems, f.URL+": "+tdm.problem.Error())
	}
	if tdm.file != nil {
		for _, p := range tdm.file.Problems {
			problems = append(problems, f.URL+": "+p)
		}
	}
	return tdm.file, problems, nil
}

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
	// policy (fetch.Options), applied to this file (to robots.txt, when
	// robots.txt refused it).
	TTL time.Duration
}

// TDMRepURL returns the tdmrep.json URL of the origin of pageURL.
func TDMRepURL(pageURL string) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("tdmrep: %q is not an absolute http or https URL", pageURL)
	}
	return u.Scheme + "://" + u.Host + tdmRepFile.Path, nil
}

// GetTDMRep fetches the tdmrep.json of the origin of pageURL with the
// User-Agent header userAgent, as a fetch.Cache of its own fetches it
// (client nil: as fetch.Get's), reading at most signals.MaxTDMRepSize
// bytes. It fetches the origin's robots.txt first, and fetches tdmrep.json
// only where those rules allow the crawler userAgent names (its product
// token, or "*" if it names none): otherwise (a Disallow, or a robots.txt
// that answered 429, 5xx or not at all) the Result has status 0 and the
// error is a *fetch.DisallowedError, which matches fetch.ErrDisallowed. A
// network failure is returned as the error, with a Result of status 0; an
// HTTP error status is not an error.
func GetTDMRep(ctx context.Context, client *http.Client, userAgent, pageURL string) (*TDMRepResult, error) {
	tu, err := TDMRepURL(pageURL)
	if err != nil {
		return nil, err
	}
	var robotsRes, tdmRes *fetch.Result
	var tdmErr error
	c := fetch.NewCache(client, userAgent, fetch.Options{Fetched: func(res *fetch.Result, err error) {
		if strings.HasSuffix(res.URL, "/robots.txt") {
			robotsRes = res
		} else {
			tdmRes, tdmErr = res, err
		}
	}})
	agent, _, err := robots.CrawlerToken(userAgent)
	if err != nil {
		agent = "*"
	}
	site, err := c.Site(ctx, agent, pageURL, tdmRepFile)
	if err == nil {
		err = site.Files[0].Err
	}
	switch {
	case err != nil && robotsRes == nil:
		return nil, err
	case err != nil:
		return &TDMRepResult{URL: tu, TTL: robotsRes.TTL}, err
	case tdmRes == nil:
		return nil, fmt.Errorf("tdmrep: %s was not fetched", tu)
	}
	res := &TDMRepResult{URL: tu, StatusCode: tdmRes.StatusCode, TTL: tdmRes.TTL}
	if tdmErr != nil {
		return res, fmt.Errorf("tdmrep: %w", tdmErr)
	}
	if 200 <= res.StatusCode && res.StatusCode <= 299 {
		f := parseTDMRep(tdmRes.Body).(*tdmFile)
		res.File, res.Problem = f.file, f.problem
	}
	return res, nil
}
