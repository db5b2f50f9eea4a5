// Package memstore is a fetch.Store in memory, for the tests of fetch and
// usage: the Caches of a test share one as a fleet shares Redis.
package memstore

import (
	"context"
	"sync"
	"time"

	"github.com/gorep/robots/fetch"
)

// A Store keeps states by file URL and leases until they expire, on the
// wall clock.
type Store struct {
	mu     sync.Mutex
	states map[string]fetch.State
	leases map[string]time.Time // file URL -> expiry
	saves  int
}

// New returns an empty Store.
func New() *Store {
	return &Store{states: map[string]fetch.State{}, leases: map[string]time.Time{}}
}

// Load implements fetch.Store.
func (m *Store) Load(_ context.Context, fileURL string) (fetch.State, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.states[fileURL]
	return st, ok, nil
}

// Save implements fetch.Store.
func (m *Store) Save(_ context.Context, st fetch.State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.states[st.RobotsURL] = st
	m.saves++
	return nil
}

// Lease implements fetch.Store: fetch.ErrLeased while another lease of
// the URL has not expired nor been released.
func (m *Store) Lease(_ context.Context, fileURL string, ttl time.Duration) (fetch.Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Now().Before(m.leases[fileURL]) {
		return nil, fetch.ErrLeased
	}
	m.leases[fileURL] = time.Now().Add(ttl)
	return lease{m, fileURL}, nil
}

// Put sets the state kept for its RobotsURL, as another process's Save
// would, without counting a save.
func (m *Store) Put(st fetch.State) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.states[st.RobotsURL] = st
}

// Counts returns the number of Saves so far and of leases held.
func (m *Store) Counts() (saves, leases int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves, len(m.leases)
}

type lease struct {
	m       *Store
	fileURL string
}

func (l lease) Release(context.Context) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	delete(l.m.leases, l.fileURL)
	return nil
}
