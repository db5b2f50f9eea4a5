package tester

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/signals"
)

// signalsRequest is the body of /api/signals: a robots.txt, a crawler,
// a page URL, and what the page's response said: its header block as
// pasted ("Name: value" lines) and its HTML, and optionally the site's
// tdmrep.json.
type signalsRequest struct {
	Robots  string `json:"robots"`
	Agent   string `json:"agent"`
	URL     string `json:"url"`
	Headers string `json:"headers"`
	HTML    string `json:"html"`
	TDMRep  string `json:"tdmrep"`
}

// signals serves /api/signals with the answer for each use, as
// "robotstxt signals -json" prints it.
func (s *server) signals(w http.ResponseWriter, r *http.Request) {
	var req signalsRequest
	if !decode(w, r, &req) {
		return
	}
	if req.URL == "" {
		req.URL = "/"
	}
	if len(req.URL) > maxURLBytes {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad request: url: over %d bytes", maxURLBytes))
		return
	}
	agent := robots.ProductToken(req.Agent)
	if agent == "" {
		agent = "Googlebot"
	}
	// Parse reads robots.MaxSize bytes: the rest is not copied.
	seen := signals.Seen{Robots: robots.Parse([]byte(req.Robots[:min(len(req.Robots), robots.MaxSize)]))}
	var problems []string
	if len(req.Headers) > maxHeaderBlock {
		req.Headers = req.Headers[:maxHeaderBlock]
		problems = append(problems, fmt.Sprintf("headers: over %d bytes: the rest is ignored", maxHeaderBlock))
	}
	seen.Header = parseHeaderBlock(req.Headers)
	if strings.TrimSpace(req.TDMRep) != "" {
		f, err := signals.ParseTDMRep([]byte(req.TDMRep))
		if err != nil {
			problems = append(problems, err.Error())
		} else {
			seen.TDMRep = f
			problems = append(problems, f.Problems...)
		}
	}
	if req.HTML != "" {
		seen.Head, _ = signals.ReadHeadScan(strings.NewReader(req.HTML), 0) // a string reader never fails
	}
	d := signals.Decide(req.URL, agent, seen)
	d.Problems = append(problems, d.Problems...)
	writeJSON(w, http.StatusOK, d)
}

// maxHeaderBlock bounds the header block of a /api/signals request: a
// response header is seldom over 8 KiB, and a Decision reads each field up
// to 8 KiB. maxURLBytes bounds its URL, which the answer repeats.
const (
	maxHeaderBlock = 64 << 10
	maxURLBytes    = 16 << 10
)

// parseHeaderBlock reads pasted "Name: value" lines, skipping a status line
// ("HTTP/1.1 200 OK") and lines without a colon.
func parseHeaderBlock(block string) http.Header {
	h := http.Header{}
	for line := range strings.Lines(block) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	return h
}
