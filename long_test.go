package robots

import "os"

// longTests reports whether the exhaustive tests run in full:
// ROBOTS_LONG=1 go test ./... (which .ci/run does). By default each runs a
// smaller sample of the same cases (for a seeded random test, the first
// files of the same sequence), so that go test ./... takes seconds.
var longTests = os.Getenv("ROBOTS_LONG") == "1"

// sample returns full when the long tests run, else short: the size of a
// test's sample, such as sample(120, 24) files.
func sample(full, short int) int {
	if longTests {
		return full
	}
	return short
}
