package fetch

import (
	"strconv"
	"testing"
	"time"

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

// TestAsideBound checks that a Store naming more shards than maxAside set
// aside at once is set aside whole.
func TestAsideBound(t *testing.T) {
	var a aside
	until := time.Now().Add(time.Minute).UnixNano()
	now := time.Now().UnixNano()
	a.add("one", until)
	if !a.has("one", now) || a.has("two", now) {
		t.Fatalf("one shard aside: has(one) %t, has(two) %t; want true, false", a.has("one", now), a.has("two", now))
	}
	for i := range maxAside {
		a.add(strconv.Itoa(i), until)
	}
	if !a.has("two", now) || len(a.until) > maxAside+1 {
		t.Errorf("%d shards aside: has(two) %t, %d kept; want true, at most %d", maxAside+1, a.has("two", now), len(a.until), maxAside+1)
	}
	if a.has("one", until) {
		t.Errorf("has(one) after its time = true")
	}
}
