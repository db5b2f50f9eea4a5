package fetch_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gorep/robots/fetch"
)

// TestMain runs the tests and examples with every default transport
// guarded: they dial 127.0.0.1 only.
func TestMain(m *testing.M) {
	fetch.GuardLoopback()
	os.Exit(m.Run())
}

// TestGuardLoopback checks the guard: a default transport refuses to dial
// anything but 127.0.0.1, before any packet is sent.
func TestGuardLoopback(t *testing.T) {
	for _, u := range []string{"http://192.0.2.1/robots.txt", "http://10.0.0.1/robots.txt", "http://169.254.169.254/robots.txt"} {
		_, err := fetch.Get(t.Context(), nil, "GuardBot/1.0", u)
		if err == nil || !strings.Contains(err.Error(), "test guard") {
			t.Errorf("Get(%q) error = %v, want the test guard's refusal", u, err)
		}
	}
}
