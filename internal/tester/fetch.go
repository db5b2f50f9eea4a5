package tester

import (
	"io"
	"net/http"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

// fetchTimeout bounds a fetch of /api/fetch when Options.Client is nil.
const fetchTimeout = 15 * time.Second

// fetchClient returns c, or the default client of /api/fetch if c is nil.
func fetchClient(c *http.Client) *http.Client {
	if c == nil {
		return &http.Client{Timeout: fetchTimeout}
	}
	return c
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

	// fetch.Robots gives the rules, not the body: record the body as it
	// reads it, through the transport.
	rec := &recorder{base: s.client.Transport}
	if rec.base == nil {
		rec.base = http.DefaultTransport
	}
	client := *s.client
	client.Transport = rec
	res, err := fetch.Robots(r.Context(), &client, s.opts.UserAgent, req.URL)
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
	if res.Outcome == fetch.Success && rec.last != nil {
		resp.Robots = string(rec.last.body)
		resp.file = file{len(rec.last.body), rec.last.more}
	}
	if err != nil {
		resp.Error = err.Error()
	}
	writeJSON(w, http.StatusOK, resp)
}

// A recorder is a transport that keeps what is read of the body of the
// last response.
//
// The requests of one fetch (a redirect chain) follow one another, so a
// recorder serves one fetch and needs no lock.
type recorder struct {
	base http.RoundTripper
	last *recording
}

func (rec *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := rec.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	rec.last = &recording{ReadCloser: resp.Body}
	resp.Body = rec.last
	return resp, nil
}

// A recording is a response body that keeps what is read of it.
type recording struct {
	io.ReadCloser
	body []byte
	// more reports that the body went on after robots.MaxSize bytes.
	more bool
}

func (b *recording) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.body = append(b.body, p[:n]...)
	return n, err
}

// Close closes the body, after checking whether there was more of it than
// the robots.MaxSize bytes that fetch reads.
func (b *recording) Close() error {
	if len(b.body) >= robots.MaxSize {
		var one [1]byte
		n, _ := io.ReadFull(b.ReadCloser, one[:])
		b.more = n > 0
	}
	return b.ReadCloser.Close()
}
