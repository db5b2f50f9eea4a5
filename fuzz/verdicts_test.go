package fuzz

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// sharedTestdata is the project's shared test data, seen from this module.
const sharedTestdata = "../../shared/testdata"

// localTestdata holds a sample of the shared files, so that the real-world
// tests always run something.
const localTestdata = "testdata"

// A verdict is one line of realworld-verdicts.jsonl: the answer of Google's
// C++ reference parser for one question about one real file.
type verdict struct {
	ID         string `json:"id"`
	RobotsFile string `json:"robots_file"`
	Agent      string `json:"agent"`
	URL        string `json:"url"`
	Want       bool   `json:"want"`
}

// corpus is a folder of real robots.txt files with their verdicts.
type corpus struct {
	dir      string               // the folder holding realworld/ and realworld-verdicts.jsonl
	files    []string             // file names, in the order of the verdicts
	verdicts map[string][]verdict // by file name
}

// loadCorpus reads dir/realworld-verdicts.jsonl. It returns nil if dir does
// not exist.
func loadCorpus(t testing.TB, dir string) *corpus {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "realworld-verdicts.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &corpus{dir: dir, verdicts: make(map[string][]verdict)}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s/realworld-verdicts.jsonl:%d: %v", dir, n, err)
		}
		if _, ok := c.verdicts[v.RobotsFile]; !ok {
			c.files = append(c.files, v.RobotsFile)
		}
		c.verdicts[v.RobotsFile] = append(c.verdicts[v.RobotsFile], v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// body returns the bytes of one file of the corpus, untouched.
func (c *corpus) body(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, "realworld", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// corpora returns the shared corpus, when it is there, and the local sample.
// It says so with t.Log when the shared one is missing.
func corpora(t testing.TB) []*corpus {
	t.Helper()
	var cs []*corpus
	if c := loadCorpus(t, sharedTestdata); c != nil {
		cs = append(cs, c)
	} else {
		t.Logf("shared test data not found at %s (relative to the fuzz module): "+
			"running only the local sample in %s/realworld", sharedTestdata, localTestdata)
	}
	c := loadCorpus(t, localTestdata)
	if c == nil {
		t.Fatalf("local sample %s/realworld-verdicts.jsonl is missing", localTestdata)
	}
	return append(cs, c)
}
