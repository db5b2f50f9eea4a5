package lint

import (
	"flag"
	"testing"

	"github.com/gorep/robots/internal/corpus"
)

// The fixtures of package corpus, as the tests here name them.

var update = flag.Bool("update", false, "rewrite testdata/check.golden")

const (
	googleExample         = corpus.GoogleExample
	attachExample         = corpus.AttachExample
	contentSignalsExample = corpus.ContentSignalsExample
)

// seedFiles returns the files of the module's testdata/realworld and
// testdata/golden (the .txt ones) of up to maxBytes.
func seedFiles(tb testing.TB, maxBytes int) []corpus.SeedFile {
	tb.Helper()
	return corpus.SeedFiles(tb, "..", maxBytes)
}

// addSeeds adds the files of seedFiles of up to maxBytes to the seed
// corpus.
func addSeeds(f *testing.F, maxBytes int) {
	for _, seed := range seedFiles(f, maxBytes) {
		f.Add(seed.Body)
	}
}

// fuzzMaxBytes bounds the inputs of the fuzz targets, as package robots's
// (fuzz_test.go there says why).
const fuzzMaxBytes = 512

func short(s string) string { return corpus.Short(s) }

// benchEachFile runs do over each file of corpus.BenchFiles, as
// throughput.
func benchEachFile(b *testing.B, do func(body []byte)) {
	for _, f := range corpus.BenchFiles {
		body := corpus.ReadBench(b, "..", f.File)
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				do(body)
			}
		})
	}
}
