package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// Two crawler processes (here two Caches) share one Redis: the site's
// robots.txt is fetched once, and both answer alike.
func Example() {
	var fetches atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	// redisAddr is a Redis server, such as "127.0.0.1:6379".
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr, ContextTimeoutEnabled: true})
	defer rdb.Close()
	store := redisstore.New(rdb, redisstore.Options{Prefix: "example:"})

	const userAgent = "ExampleBot/1.0 (+https://example.com/bot)"
	worker1 := fetch.NewCache(nil, userAgent, fetch.Options{Store: store})
	worker2 := fetch.NewCache(nil, userAgent, fetch.Options{Store: store})

	ctx := context.Background()
	for _, w := range []*fetch.Cache{worker1, worker2} {
		public, _ := w.Allowed(ctx, "ExampleBot", site.URL+"/")
		private, _ := w.Allowed(ctx, "ExampleBot", site.URL+"/private/x")
		fmt.Println("public:", public, "private:", private)
	}
	fmt.Println("robots.txt fetched", fetches.Load(), "time")
	// Output:
	// public: true private: false
	// public: true private: false
	// robots.txt fetched 1 time
}
