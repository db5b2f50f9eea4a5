package fetch_test

import (
	"errors"
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

// TestGuardLoopback checks the guards: a default client refuses to dial
// anything but 127.0.0.1, before any packet is sent, either in fetch.Guard
// (localhost resolves to a loopback address, and names are never an
// intranet's) or in the loopback guard; and no name is looked up with DNS.
func TestGuardLoopback(t *testing.T) {
	for _, u := range []string{"http://192.0.2.1/robots.txt", "http://10.0.0.1/robots.txt", "http://169.254.169.254/robots.txt", "http://localhost/robots.txt", "http://nx.example/robots.txt"} {
		_, err := fetch.Get(t.Context(), nil, "GuardBot/1.0", u)
		if err == nil || !strings.Contains(err.Error(), "loopback guard") && !errors.Is(err, fetch.ErrGuarded) {
			t.Errorf("Get(%q) error = %v, want a guard's refusal", u, err)
		}
	}
}
