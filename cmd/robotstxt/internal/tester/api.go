package tester

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/verdict"
)

// api serves h for POST requests with a JSON body from this origin, and
// answers the others with a JSON error.
func api(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "use POST")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
			writeError(w, http.StatusForbidden, fmt.Sprintf("requests from %s are not answered", o))
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "the body must be JSON, with Content-Type: application/json")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxRequest)
		h(w, r)
	})
}

// notFound answers paths under /api/ that are no endpoint.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s: there are /api/test, /api/check, /api/audit, /api/signals and /api/fetch", r.URL.Path))
}

// decode reads the JSON body of r into v. On failure it answers 400, or 413
// for a body over maxRequest, and returns false. The body is read once into
// a buffer of its Content-Length and decoded from there: a 4 MiB body costs
// about twice its size, not the five times of a json.Decoder's growing
// buffer.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	err := readJSON(r.Body, r.ContentLength, v)
	if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is over %d bytes", tooLarge.Limit))
		return false
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return false
	}
	return true
}

// readJSON reads one JSON object of body, of length n if n >= 0, into v,
// refusing a field v does not have. It reads the bytes twice: json.Unmarshal
// (which checks them, then decodes), and topKeys; a 4 MiB body costs about
// 30 ms, not the 50 of three more passes.
func readJSON(body io.Reader, n int64, v any) error {
	buf := bytes.NewBuffer(make([]byte, 0, min(max(n, 0), maxRequest)+bytes.MinRead))
	if _, err := buf.ReadFrom(body); err != nil {
		return err
	}
	data := bytes.TrimSpace(buf.Bytes())
	if len(data) == 0 {
		return errors.New("empty body")
	}
	if err := json.Unmarshal(data, v); err != nil {
		// Not JSON, or two values: say why, as a json.Decoder reading
		// value after value does; or a value of the wrong type.
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(new(json.RawMessage)); err != nil {
			return err
		}
		switch err2 := dec.Decode(new(json.RawMessage)); {
		case err2 == io.EOF:
			return err
		case err2 != nil:
			return err2
		}
		return errors.New("more than one JSON value")
	}
	t := reflect.TypeOf(v).Elem()
	return topKeys(data, func(name string) error {
		if !hasField(t, name) {
			return fmt.Errorf("json: unknown field %q", name)
		}
		return nil
	})
}

// topKeys calls f with each key of the JSON object data, which is valid,
// skipping the values, until f returns an error.
func topKeys(data []byte, f func(string) error) error {
	depth, key := 0, false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
			key = depth == 1 && data[i] == '{'
		case '}', ']':
			depth--
		case ',':
			key = depth == 1
		case '"':
			end := i + 1
			for data[end] != '"' {
				if data[end] == '\\' {
					end++
				}
				end++
			}
			if key {
				var name string
				json.Unmarshal(data[i:end+1], &name) // a valid string
				if err := f(name); err != nil {
					return err
				}
				key = false
			}
			i = end
		}
	}
	return nil
}

// hasField reports whether the struct type t has a field that JSON names
// name, as encoding/json matches them (case-insensitively).
func hasField(t reflect.Type, name string) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct && hasField(f.Type, name) {
			return true
		}
		if tag == "" {
			tag = f.Name
		}
		if f.IsExported() && strings.EqualFold(tag, name) {
			return true
		}
	}
	return false
}

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// writeError answers {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Error string `json:"error"`
	}{msg})
}

// A file describes the robots.txt of a request or answer, for the answer.
type file struct {
	// Size is the length of the file in bytes.
	Size int `json:"size"`
	// Truncated reports that Size is over robots.MaxSize, so that only the
	// first robots.MaxSize bytes were used.
	Truncated bool `json:"truncated"`
}

func fileOf(body string) file { return file{len(body), len(body) > robots.MaxSize} }

// testRequest is the body of /api/test.
type testRequest struct {
	Robots string   `json:"robots"`
	Agents []string `json:"agents"`
	URLs   []string `json:"urls"`
}

// testResponse is the answer of /api/test.
type testResponse struct {
	Agents []string `json:"agents"`
	file
	Warnings []string          `json:"warnings,omitempty"`
	Results  []verdict.Verdict `json:"results"`
}

// test serves /api/test.
func (s *server) test(w http.ResponseWriter, r *http.Request) {
	var req testRequest
	if !decode(w, r, &req) {
		return
	}
	if len(req.Agents) == 0 {
		writeError(w, http.StatusBadRequest, "bad request: agents: give at least one product token, such as \"Googlebot\"")
		return
	}
	resp := testResponse{Agents: make([]string, len(req.Agents)), file: fileOf(req.Robots), Results: make([]verdict.Verdict, len(req.URLs))}
	for i, a := range req.Agents {
		token, warning, err := robots.CrawlerToken(a)
		if err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("bad request: agents[%d]: %s", i, strings.TrimPrefix(err.Error(), "robots: ")))
			return
		}
		if warning != "" {
			resp.Warnings = append(resp.Warnings, "agent "+warning)
		}
		resp.Agents[i] = token
	}
	if work := len(req.Agents) * max(len(req.URLs), 1); work > maxTestWork {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("bad request: %d agents × %d URLs is over %d: ask fewer at a time",
			len(req.Agents), len(req.URLs), maxTestWork))
		return
	}
	g := robots.Parse([]byte(req.Robots)).Group(resp.Agents...)
	ctx := r.Context()
	for i, u := range req.URLs {
		if ctx.Err() != nil {
			return // the client has gone: nobody reads the answer
		}
		resp.Results[i] = decide(g, u)
	}
	writeJSON(w, http.StatusOK, resp)
}

// maxTestWork bounds the agents times the URLs of one /api/test request,
// so that its work is bounded whatever the file: resolving the group is
// linear in the agents, and each URL is answered in time independent of
// the number of agents and groups.
const maxTestWork = 100_000

// decide returns the verdict of g on rawURL, in the shape "robotstxt test
// -json" prints it, without its agent: one crawler is asked.
func decide(g *robots.Group, rawURL string) verdict.Verdict {
	if err := CheckURL(rawURL); err != nil {
		return verdict.Failed(rawURL, err)
	}
	return verdict.Of("", rawURL, g.Decide(rawURL))
}
