package fetch_test

import (
	"os"
	"strings"
	"testing"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/internal/loopback"
)

// TestMain runs the tests and examples with http.DefaultTransport, and so
// every default client and transport of the package, dialing 127.0.0.1 only.
func TestMain(m *testing.M) {
	loopback.Guard()
	os.Exit(m.Run())
}

// TestGuardLoopback checks the guard: a default client refuses to dial
// anything but 127.0.0.1, before any packet is sent.
func TestGuardLoopback(t *testing.T) {
	for _, u := range []string{"http://192.0.2.1/robots.txt", "http://10.0.0.1/robots.txt", "http://169.254.169.254/robots.txt", "http://localhost/robots.txt"} {
		_, err := fetch.Get(t.Context(), nil, "GuardBot/1.0", u)
		if err == nil || !strings.Contains(err.Error(), "loopback guard") {
			t.Errorf("Get(%q) error = %v, want the loopback guard's refusal", u, err)
		}
	}
}
