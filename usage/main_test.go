package usage_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/gorep/robots/internal/loopback"
	"github.com/gorep/robots/internal/memstore"
)

// TestMain runs the tests and examples with http.DefaultTransport, and so
// every default client and transport of fetch, dialing 127.0.0.1 only.
func TestMain(m *testing.M) {
	loopback.Guard()
	os.Exit(m.Run())
}

// roundTripperFunc makes a function an http.RoundTripper.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A memStore is a fetch.Store in memory, shared by the Caches of a test as
// a fleet shares Redis.
type memStore = memstore.Store

func newMemStore() *memStore { return memstore.New() }
