package usage_test

import (
	"context"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/internal/loopback"
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
type memStore struct {
	mu     sync.Mutex
	states map[string]fetch.State
	leases map[string]time.Time // file URL -> expiry
}

func newMemStore() *memStore {
	return &memStore{states: map[string]fetch.State{}, leases: map[string]time.Time{}}
}

func (m *memStore) Load(_ context.Context, fileURL string) (fetch.State, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.states[fileURL]
	return st, ok, nil
}

func (m *memStore) Save(_ context.Context, st fetch.State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.states[st.RobotsURL] = st
	return nil
}

func (m *memStore) Lease(_ context.Context, fileURL string, ttl time.Duration) (fetch.Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Now().Before(m.leases[fileURL]) {
		return nil, fetch.ErrLeased
	}
	m.leases[fileURL] = time.Now().Add(ttl)
	return memLease{m, fileURL}, nil
}

type memLease struct {
	m       *memStore
	fileURL string
}

func (l memLease) Release(context.Context) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	delete(l.m.leases, l.fileURL)
	return nil
}
