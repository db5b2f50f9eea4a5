package robots

import "os"

// sample returns full when the exhaustive tests run in full,
// ROBOTS_LONG=1 go test ./... (which .ci/run does), else short: the size
// of a test's sample, such as sample(120, 24) files. By default each runs
// a smaller sample of the same cases (for a seeded random test, the first
// files of the same sequence), so that go test ./... takes seconds. The
// variable is read here, as a test runs, where the test cache records it:
// a run with it set never answers from the cache of a run without.
func sample(full, short int) int {
	if os.Getenv("ROBOTS_LONG") == "1" {
		return full
	}
	return short
}
