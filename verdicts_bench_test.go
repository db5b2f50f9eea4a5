package robots

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkVerdicts is a warm question over Google's recorded questions:
// every file of shared/testdata/realworld-verdicts.jsonl (50,820 questions
// on 1,694 real files, beside the repository) parsed and asked once
// beforehand, then each question in turn, one an op. Without ../shared it
// uses the sample in testdata.
func BenchmarkVerdicts(b *testing.B) {
	list, dir := "../shared/testdata/realworld-verdicts.jsonl", "../shared/testdata/realworld"
	if _, err := os.Stat(list); err != nil {
		list, dir = "testdata/realworld-verdicts.jsonl", "testdata/realworld"
	}
	f, err := os.Open(list)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	type question struct {
		r          *Robots
		agent, url string
	}
	var qs []question
	parsed := map[string]*Robots{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			b.Fatal(err)
		}
		r, ok := parsed[v.RobotsFile]
		if !ok {
			body, err := os.ReadFile(filepath.Join(dir, v.RobotsFile))
			if err != nil {
				b.Fatal(err)
			}
			r = Parse(body)
			parsed[v.RobotsFile] = r
		}
		qs = append(qs, question{r, v.Agent, v.URL})
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	for _, q := range qs {
		q.r.Allowed(q.agent, q.url)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := &qs[i%len(qs)]
		q.r.Allowed(q.agent, q.url)
	}
}
