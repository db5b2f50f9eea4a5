package fetch

import (
	"testing"

	"github.com/gorep/robots"
)

// TestOutcomeAgreesWithFromStatus checks that outcome draws the lines
// between the cases where robots.FromStatus draws them, for every status code
// a server can send.
func TestOutcomeAgreesWithFromStatus(t *testing.T) {
	disallowing := []byte("User-agent: *\nDisallow: /\n")
	allowing := []byte("User-agent: *\nAllow: /\n")
	for code := 100; code <= 999; code++ {
		// Which of the two bodies FromStatus reads tells the case apart:
		// parsed (Success), ignored and allow all (Unavailable), ignored and
		// disallow all (Unreachable).
		d := robots.FromStatus(code, disallowing).Allowed("TestBot", "/a")
		a := robots.FromStatus(code, allowing).Allowed("TestBot", "/a")
		var want Outcome
		switch {
		case !d && a:
			want = Success
		case d && a:
			want = Unavailable
		case !d && !a:
			want = Unreachable
		}
		if got := outcome(code); got != want {
			t.Errorf("outcome(%d) = %v, want %v", code, got, want)
		}
	}
}
