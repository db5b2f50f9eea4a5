package semdiff

import "os"

// longTests reports whether the exhaustive tests run in full:
// ROBOTS_LONG=1 go test ./... (which .ci/run does), as in the root
// package. By default each runs the first cases of the same seeded
// sequence.
var longTests = os.Getenv("ROBOTS_LONG") == "1"

// sample returns full when the long tests run, else short.
func sample(full, short int) int {
	if longTests {
		return full
	}
	return short
}
