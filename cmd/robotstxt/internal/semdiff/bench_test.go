package semdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gorep/robots"
)

// BenchmarkCompare compares real files of the root package's testdata with
// themselves: all the work, and no change to print.
func BenchmarkCompare(b *testing.B) {
	for _, name := range []string{
		"bharath__wikipedia.org.txt",   // 27 KB, literal patterns
		"anubhav__play.google.com.txt", // 4 KB, wildcards, explored fully
		"egonkm__www.yumpu.com.txt",    // 3 KB, wildcards, explored fully
		"egonkm__DOTEXE.com.txt",       // 4 KB, 7 groups of wildcards, not complete
		"avuim__www.expert.de.txt",     // 231 KB, 1,708 rules, not complete
	} {
		body, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "realworld", name))
		if err != nil {
			b.Fatal(err)
		}
		r := robots.Parse(body)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Compare(r, r, Options{})
			}
		})
	}
}
