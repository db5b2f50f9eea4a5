package tester

import (
	"net/http"
	"time"

	"github.com/gorep/robots/fetch"
)

// fetchTimeout bounds a fetch of /api/fetch when Options.Client is nil.
const fetchTimeout = 15 * time.Second

// fetchClient returns c, or the default client of /api/fetch if c is nil:
// through a strict fetch.Guard unless allowPrivate.
func fetchClient(c *http.Client, allowPrivate bool) *http.Client {
	switch {
	case c != nil:
		return c
	case allowPrivate:
		return &http.Client{Timeout: fetchTimeout}
	}
	guarded := (&fetch.Guard{Strict: true}).Client()
	guarded.Timeout = fetchTimeout
	return guarded
}

// fetchRequest is the body of /api/fetch.
type fetchRequest struct {
	URL string `json:"url"`
}

// fetchResponse is the answer of /api/fetch.
type fetchResponse struct {
	URL       string `json:"url"`
	Status    int    `json:"status"`
	Outcome   string `json:"outcome"`
	Redirects int    `json:"redirects"`
	Robots    string `json:"robots"`
	file
	Error string `json:"error,omitempty"`
}

// fetch serves /api/fetch.
func (s *server) fetch(w http.ResponseWriter, r *http.Request) {
	if !s.opts.AllowFetch {
		writeError(w, http.StatusForbidden, "fetching is off: start the server with -allow-fetch to load live files")
		return
	}
	var req fetchRequest
	if !decode(w, r, &req) {
		return
	}
	if req.URL == "" {
		writeError(w, http.StatusBadRequest, "bad request: url: give the URL of a site or of its robots.txt")
		return
	}

	res, err := fetch.Get(r.Context(), s.client, s.opts.UserAgent, req.URL)
	if res == nil {
		writeError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return
	}
	resp := fetchResponse{
		URL:       res.URL,
		Status:    res.StatusCode,
		Outcome:   res.Outcome.String(),
		Redirects: res.Redirects,
	}
	if res.Outcome == fetch.Success {
		resp.Robots = string(res.Body)
		resp.file = file{len(res.Body), res.Truncated}
	}
	if err != nil {
		resp.Error = err.Error()
	}
	writeJSON(w, http.StatusOK, resp)
}
