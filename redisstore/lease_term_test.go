package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/gorep/robots/redisstore"
)

// TestLeaseShortTerm: a LeaseTerm under a millisecond (Redis counts lease
// TTLs in whole milliseconds) still gives a lease, of one millisecond's
// term, rather than an error from Redis ("invalid expire time") on every
// Lease, which would set the Store aside as faulty and stop the fleet from
// sharing.
func TestLeaseShortTerm(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	ctx := context.Background()
	for _, term := range []time.Duration{time.Nanosecond, 999 * time.Microsecond} {
		store := redisstore.New(rdb, redisstore.Options{LeaseTerm: term})
		url := robotsURL + "?term=" + term.String()
		l, err := store.Lease(ctx, url, 50*time.Millisecond)
		if err != nil {
			t.Errorf("LeaseTerm %v: Lease: %v, want a lease", term, err)
			continue
		}
		if err := l.Release(ctx); err != nil {
			t.Errorf("LeaseTerm %v: Release: %v", term, err)
		}
	}
}
