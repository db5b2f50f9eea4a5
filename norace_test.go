//go:build !race

package robots

// raceEnabled reports that the tests are built with the race detector
// (race_test.go).
const raceEnabled = false
