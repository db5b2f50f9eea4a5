package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// keptRatios are the numbers TestKeptPerByte logs (go test -v): bytes a
// parsed file keeps, warm for Googlebot (TestKeptPerByte), per byte of input.
type keptRatios struct {
	Corpus      float64 // over the real-world corpus, summed
	CorpusKept  int     // bytes kept for the whole corpus
	CorpusBytes int     // bytes of the corpus
	Largest     float64 // for the largest file of the corpus
	LargestSize int     // its bytes
	Files       []kept  // each named ratio, in the order logged; "realworld" is the corpus
}

// A kept is one named ratio of TestKeptPerByte and the bound the test
// holds it to.
type kept struct {
	Name  string
	Ratio float64
	Bound float64
}

var (
	// realworld: 1.79 (10282833 of 5748778 bytes); largest file (230767 bytes) 1.28
	corpusLine = regexp.MustCompile(`realworld: ([0-9.]+) \(([0-9]+) of ([0-9]+) bytes\); largest file \(([0-9]+) bytes\) ([0-9.]+)`)
	// one-agent-many: 3.23 bytes kept per input byte (bound 3.3)
	ratioLine = regexp.MustCompile(`: (\S+): ([0-9.]+) bytes kept per input byte \(bound ([0-9.]+)\)`)
)

// parseKept reads the output of go test -run KeptPerByte -v.
func parseKept(r io.Reader) (keptRatios, error) {
	var k keptRatios
	corpus := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if m := corpusLine.FindStringSubmatch(line); m != nil {
			corpus = true
			k.Corpus, _ = strconv.ParseFloat(m[1], 64)
			k.CorpusKept, _ = strconv.Atoi(m[2])
			k.CorpusBytes, _ = strconv.Atoi(m[3])
			k.LargestSize, _ = strconv.Atoi(m[4])
			k.Largest, _ = strconv.ParseFloat(m[5], 64)
			continue
		}
		if m := ratioLine.FindStringSubmatch(line); m != nil {
			ratio, _ := strconv.ParseFloat(m[2], 64)
			bound, _ := strconv.ParseFloat(m[3], 64)
			k.Files = append(k.Files, kept{Name: m[1], Ratio: ratio, Bound: bound})
		}
	}
	if err := sc.Err(); err != nil {
		return keptRatios{}, err
	}
	if !corpus || len(k.Files) == 0 {
		return keptRatios{}, fmt.Errorf("kept per byte: no %q line or no ratio lines: has TestKeptPerByte's log changed?", "realworld: ...")
	}
	return k, nil
}
