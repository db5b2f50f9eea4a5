package semdiff

import "os"

// sample returns full when the exhaustive tests run in full, ROBOTS_LONG=1
// go test ./... (which .ci/run does), as in the root package, else short:
// by default each runs the first cases of the same seeded sequence. The
// variable is read as the test runs, so that the test cache records it: a
// long run is never answered from the cache of a plain one.
func sample(full, short int) int {
	if os.Getenv("ROBOTS_LONG") == "1" {
		return full
	}
	return short
}
