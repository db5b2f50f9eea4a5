//go:build race

package robots

// raceEnabled reports that the tests are built with the race detector,
// whose instrumentation allocates what a normal build does not:
// slices.Grow, for one, allocates the room it adds twice (the append of a
// make that a normal build does without).
const raceEnabled = true
