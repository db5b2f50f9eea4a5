//go:build race

package robots

// raceEnabled reports that the tests run under the race detector, whose
// runtime allocates differently: sync.Pool drops what it is given at
// random, and what Parse allocates is not what it allocates without it.
const raceEnabled = true
