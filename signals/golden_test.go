package signals

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestDecideGolden decides each case of testdata/decide (a comment, then
// "-- name --" sections: url, agent, robots.txt, tdmrep.json, headers,
// html) and compares the Decision, as JSON, with the .golden file beside
// it; -update rewrites them.
func TestDecideGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "decide", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no cases in testdata/decide")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := sections(string(data))
			seen := Seen{Now: testNow}
			if body, ok := sec["robots.txt"]; ok {
				seen.Robots = robots.Parse([]byte(body))
			}
			if body, ok := sec["tdmrep.json"]; ok {
				if seen.TDMRep, err = ParseTDMRep([]byte(body)); err != nil {
					t.Fatal(err)
				}
			}
			if body, ok := sec["headers"]; ok {
				seen.Header = http.Header{}
				for _, line := range strings.Split(body, "\n") {
					if k, v, ok := strings.Cut(line, ":"); ok && !strings.Contains(k, " ") {
						seen.Header.Add(k, strings.TrimSpace(v))
					}
				}
			}
			if body, ok := sec["html"]; ok {
				seen.Head, _ = ReadHeadScan(strings.NewReader(body), 0)
			}
			d := Decide(strings.TrimSpace(sec["url"]), strings.TrimSpace(sec["agent"]), seen)
			got, _ := json.MarshalIndent(d, "", "  ")
			got = append(got, '\n')
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Decide mismatch (-%s +got):\n%s", golden, diff)
			}
		})
	}
}

// sections splits a case file into its "-- name --" sections, each body
// without its last newline; what precedes the first is a comment.
func sections(s string) map[string]string {
	out := map[string]string{}
	var name string
	var body bytes.Buffer
	flush := func() {
		if name != "" {
			out[name] = strings.TrimSuffix(body.String(), "\n")
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(s, "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- "); ok && strings.HasSuffix(n, " --") {
			flush()
			name = strings.TrimSuffix(n, " --")
			continue
		}
		body.WriteString(line)
	}
	flush()
	return out
}
