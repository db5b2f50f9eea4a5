package fetch_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// A gatedStore is a memStore whose Save waits until gate is closed.
type gatedStore struct {
	*memStore
	gate chan struct{}
}

func (g gatedStore) Save(ctx context.Context, st fetch.State) error {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.memStore.Save(ctx, st)
}

// TestCacheFlush checks that an answer does not wait for the Store, and that
// Flush waits until the fetch is saved and its lease released: a process that
// exits after Flush leaves nothing for the fleet to fetch again.
func TestCacheFlush(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: "User-agent: *\nDisallow: /private\n"}).ServeHTTP)
	store := gatedStore{newMemStore(), make(chan struct{})}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Store: store, StoreTimeout: time.Minute})
	if err := c.Flush(context.Background()); err != nil {
		t.Fatalf("Flush before any question = %v, want nil", err)
	}
	if ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/private/x"); ok || err != nil {
		t.Fatalf("Allowed = %t, %v; want false, nil before the Save", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.Flush(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Flush with the Save held = %v, want %v", err, context.DeadlineExceeded)
	}
	close(store.gate)
	if err := c.Flush(context.Background()); err != nil {
		t.Fatalf("Flush = %v, want nil", err)
	}
	saves, leases := store.Counts()
	if saves != 1 || leases != 0 {
		t.Errorf("after Flush: %d saves, %d leases held; want 1, 0", saves, leases)
	}
}
