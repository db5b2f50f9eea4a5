package robots

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Conformance on real files: the verdicts of Google's C++ reference parser
// on testdata/realworld, and the golden files of testdata/golden; and
// realWorldBodies, the corpus the tests and benchmarks that run on real
// files read.

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden and testdata/check.golden")

// A verdict is one answer of Google's C++ reference parser, as recorded in
// testdata/realworld-verdicts.jsonl (a sample of
// shared/testdata/realworld-verdicts.jsonl for the files copied into
// testdata/realworld).
type verdict struct {
	ID         string `json:"id"`
	RobotsFile string `json:"robots_file"`
	Agent      string `json:"agent"`
	URL        string `json:"url"`
	Want       bool   `json:"want"`
}

// TestRealWorldVerdicts checks that the package agrees with every verdict
// of Google's reference parser on the real files in testdata. The nested
// fuzz module checks all of them.
func TestRealWorldVerdicts(t *testing.T) {
	f, err := os.Open("testdata/realworld-verdicts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parsed := map[string]*Robots{}
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		r, ok := parsed[v.RobotsFile]
		if !ok {
			body, err := os.ReadFile(filepath.Join("testdata/realworld", v.RobotsFile))
			if err != nil {
				t.Fatal(err)
			}
			r = Parse(body)
			parsed[v.RobotsFile] = r
		}
		n++
		if got := r.Allowed(v.Agent, v.URL); got != v.Want {
			t.Errorf("realworld/%s: Allowed(%q, %q) = %t, want %t (%v)", v.ID, v.Agent, v.URL, got, v.Want, r.Decide(v.Agent, v.URL))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Errorf("only %d verdicts checked", n)
	}
}

// TestRealWorldFiles parses every real file in testdata and checks that the
// fast matcher agrees with the slow model on the paths of the file's own
// rules, and that the file yields rules at all unless it is not a
// robots.txt (an HTML page, UTF-16 text or an empty body).
func TestRealWorldFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/realworld/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in testdata/realworld: %v", err)
	}
	for _, file := range files {
		t.Run("realworld/"+filepath.Base(file), func(t *testing.T) {
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r := Parse(body)
			rules := 0
			var paths []string
			for _, rec := range r.Records() {
				rules += len(rec.Rules)
				for _, rule := range rec.Rules {
					p := strings.NewReplacer("*", "x", "$", "").Replace(rule.Pattern)
					paths = append(paths, p, p+"/y", p+"?z")
				}
			}
			// A file with a user-agent line followed, on a later line, by
			// a plain allow or disallow line must yield rules.
			text := strings.ToLower(string(body))
			if ua := strings.Index(text, "user-agent:"); ua >= 0 && rules == 0 &&
				(strings.Contains(text[ua:], "\ndisallow: /") || strings.Contains(text[ua:], "\nallow: /")) {
				t.Errorf("no rules in %d bytes", len(body))
			}
			agents := []string{"Googlebot", "bingbot", "FooBot"}
			for _, rec := range r.Records() {
				for _, a := range rec.Agents {
					if a.Token != "*" && len(agents) < 8 {
						agents = append(agents, a.Token)
					}
				}
			}
			if n := sample(200, 40); len(paths) > n {
				paths = paths[:n]
			}
			for _, a := range agents {
				for _, p := range paths {
					if got, want := r.Allowed(a, p), slowAllowed(body, []string{a}, p); got != want {
						t.Errorf("Allowed(%q, %q) = %t, slow model says %t", a, p, got, want)
					}
				}
			}
		})
	}
}

// A golden is the parsed structure of a file, as compared with its golden
// file.
type golden struct {
	Records  []Record
	Sitemaps []string
}

// TestGolden compares the parsed structure of the files in testdata/golden
// with their .golden files. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in testdata/golden: %v", err)
	}
	for _, file := range files {
		t.Run("golden/"+filepath.Base(file), func(t *testing.T) {
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r := Parse(body)
			got := golden{Records: r.Records(), Sitemaps: r.Sitemaps()}
			goldenFile := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				b, err := json.MarshalIndent(got, "", "\t")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(goldenFile, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(goldenFile)
			if err != nil {
				t.Fatal(err)
			}
			var want golden
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", file, diff)
			}
		})
	}
}

// realWorldBodies reads the real-world corpus.
func realWorldBodies(t testing.TB) [][]byte {
	dir := "/work/shared/testdata/realworld"
	if _, err := os.Stat(dir); err != nil {
		dir = "testdata/realworld"
	}
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	var bodies [][]byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
	}
	return bodies
}
