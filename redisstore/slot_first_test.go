package redisstore_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// TestSlotFirstScript checks the script against fetch.SlotRequest.Apply on
// a host's first request: its first slot holds the host (First), no slot
// is taken meanwhile (Held, its Wait the hold's end at the latest), an
// answer ends the hold, and so does FirstHold; a known host is not held.
func TestSlotFirstScript(t *testing.T) {
	rdb := client(t, redisAddr)
	store := redisstore.New(rdb, redisstore.Options{Prefix: "slot-first:"})
	ctx := t.Context()
	const s = time.Second
	req := func(op fetch.SlotOp, within time.Duration) fetch.SlotRequest {
		return fetch.SlotRequest{Op: op, Delay: s, Within: within, MaxBackoff: 60 * s, Horizon: 3600 * s, FirstHold: 30 * s}
	}
	const robotsURL = "http://first.example/robots.txt"
	key := store.SlotKey(robotsURL)
	rdb.Del(ctx, key)
	steps := []struct {
		name string
		req  fetch.SlotRequest
		want fetch.SlotResult // Wait within a second below
	}{
		{"first", req(fetch.SlotTake, 0), fetch.SlotResult{Taken: true, First: true}},
		{"held/take", req(fetch.SlotTake, 0), fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"held/try", req(fetch.SlotTry, 40*s), fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"held/peek", req(fetch.SlotPeek, 0), fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"answered", req(fetch.SlotAnswered, 0), fetch.SlotResult{Wait: s}},
		{"known/take", req(fetch.SlotTake, 0), fetch.SlotResult{Wait: s, Taken: true}},
		{"known/take-again", req(fetch.SlotTake, 0), fetch.SlotResult{Wait: 2 * s, Taken: true}},
	}
	for _, st := range steps {
		got, err := store.Slot(ctx, robotsURL, st.req)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		w := got.Wait
		got.Wait = st.want.Wait
		if got != st.want || w > st.want.Wait || w < st.want.Wait-s {
			got.Wait = w
			t.Errorf("%s: Slot = %+v, want %+v (its Wait up to 1s less)", st.name, got, st.want)
		}
	}
	if ttl := rdb.PTTL(ctx, key).Val(); ttl < time.Minute {
		t.Errorf("TTL of a known host's key %v, want a minute past its slot", ttl)
	}

	// The hold ends after FirstHold, unanswered; a slow-down ends it too.
	for _, end := range []string{"first-hold", "slow-down"} {
		rdb.Del(ctx, key)
		r := req(fetch.SlotTake, 0)
		r.FirstHold = 300 * time.Millisecond
		if got, err := store.Slot(ctx, robotsURL, r); err != nil || !got.First {
			t.Fatalf("%s: first Slot = %+v, %v; want the first", end, got, err)
		}
		if end == "first-hold" {
			time.Sleep(300 * time.Millisecond) // the hold is on Redis's clock
		} else if got, err := store.Slot(ctx, robotsURL, fetch.SlotRequest{Op: fetch.SlotSlowDown, Hold: 1, MaxBackoff: 60 * s, Horizon: 3600 * s}); err != nil || got.Held {
			t.Fatalf("slow-down = %+v, %v", got, err)
		}
		got, err := store.Slot(ctx, robotsURL, r)
		if err != nil || !got.Taken || got.Held || got.First != (end == "first-hold") {
			t.Errorf("%s: then Slot = %+v, %v; want taken (the first again only if unanswered)", end, got, err)
		}
	}

	// A value of the old form (two integers) is a known host; a third
	// integer that is not a time ahead holds nothing.
	for v, first := range map[string]bool{"1 0": false, "1 0 0": true, "1 0 x": true} {
		rdb.Set(ctx, key, v, time.Hour)
		got, err := store.Slot(ctx, robotsURL, req(fetch.SlotTake, 0))
		if err != nil || !got.Taken || got.First != first {
			t.Errorf("value %q: Slot = %+v, %v; want taken, first %t", v, got, err, first)
		}
	}
}

// TestSlotFirstFleet: two processes' Queues over one Redis, each with its
// own clock an hour off. The first URL of a host comes out of one Queue;
// the other hands out another host's URL meanwhile, and the host's second
// URL only once the first has been answered, in the first process.
func TestSlotFirstFleet(t *testing.T) {
	d := &delaySite{robots: map[string]int{}, pages: map[string][]time.Time{}}
	held := d.host(t, "User-agent: *\nAllow: /\n")
	other := d.host(t, "User-agent: *\nAllow: /\n")
	var ps []*fetch.Politeness
	var qs []*fetch.Queue
	var store *redisstore.Store
	for i := range 2 {
		store = redisstore.New(client(t, redisAddr), redisstore.Options{Prefix: "slot-first-fleet:"})
		cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: store, AllowPrivate: true,
			StoreTimeout: time.Second}) // a loaded machine's Redis is not down
		skew := time.Duration(2*i-1) * time.Hour
		p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{Now: func() time.Time { return time.Now().Add(skew) }})
		if err != nil {
			t.Fatal(err)
		}
		ps, qs = append(ps, p), append(qs, fetch.NewQueue(p, fetch.QueueOptions{}))
	}
	ctx := t.Context()
	for _, u := range []string{held + "/1"} {
		qs[0].Push(ctx, u)
	}
	for _, u := range []string{held + "/2", other + "/1"} {
		qs[1].Push(ctx, u)
	}
	if u, err := qs[0].Next(ctx); u != held+"/1" || err != nil {
		t.Fatalf("process 0: Next = %q, %v; want %s/1", u, err, held)
	}
	if u, err := qs[1].Next(ctx); u != other+"/1" || err != nil {
		t.Logf("stats %+v %+v; value %q", ps[0].Stats(), ps[1].Stats(), client(t, redisAddr).Get(ctx, store.SlotKey(held+"/robots.txt")).Val())
		t.Fatalf("process 1: Next = %q, %v; want %s/1, as the other host's first request is out", u, err, other)
	}
	// Held: 300 ms of polls (every 50 ms) hand out nothing.
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	u, err := qs[1].Next(short)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("process 1: Next = %q, %v while the host's first request is out; want nothing", u, err)
	}
	before := time.Now()
	if err := ps[0].Answered(ctx, held+"/1", 200, nil); err != nil {
		t.Fatal(err)
	}
	if u, err := qs[1].Next(ctx); u != held+"/2" || err != nil {
		t.Fatalf("process 1: Next = %q, %v after the answer; want %s/2", u, err, held)
	}
	t.Logf("second URL handed out %v after the first answer", time.Since(before).Round(time.Millisecond))
	// Reserve waits for a hold too (other's first request is out).
	short, cancel = context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = ps[0].Reserve(short, other+"/2")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("process 0: Reserve = %v while the host's first request is out; want the context's end", err)
	}
	if err := ps[1].Answered(ctx, other+"/1", 503, nil); err != nil { // any answer
		t.Fatal(err)
	}
	if _, err := ps[0].Reserve(ctx, other+"/2"); err != nil {
		t.Fatal(err)
	}
	if st := ps[0].Stats(); st.Shared != 2 || st.Alone != 0 {
		t.Errorf("process 0: %+v, want two slots, shared", st)
	}
}

// TestClusterSlotsFirst: on the 6-node Cluster, 30 hosts' first slots,
// through one client, hold each host for the other client until answered.
func TestClusterSlotsFirst(t *testing.T) {
	c := startCluster(t, 2*time.Second)
	stores := []*redisstore.Store{
		redisstore.New(clusterClient(t, c, nil), redisstore.Options{Prefix: "first:"}),
		redisstore.New(clusterClient(t, c, nil), redisstore.Options{Prefix: "first:"}),
	}
	ctx := t.Context()
	req := fetch.SlotRequest{Op: fetch.SlotTake, MaxBackoff: time.Minute, Horizon: time.Hour, FirstHold: time.Minute}
	for i := range 30 {
		robotsURL := "http://host" + strconv.Itoa(i) + ".example/robots.txt"
		for j, want := range []fetch.SlotResult{{Taken: true, First: true}, {Wait: time.Minute, Held: true}} {
			got, err := stores[j].Slot(ctx, robotsURL, req)
			w := got.Wait
			got.Wait = want.Wait
			if err != nil || got != want || w > want.Wait || w < want.Wait-time.Second {
				t.Fatalf("%s: slot %d = %+v (wait %v), %v; want %+v", robotsURL, j, got, w, err, want)
			}
		}
		if _, err := stores[0].Slot(ctx, robotsURL, fetch.SlotRequest{Op: fetch.SlotAnswered, MaxBackoff: time.Minute, Horizon: time.Hour}); err != nil {
			t.Fatal(err)
		}
		if got, err := stores[1].Slot(ctx, robotsURL, req); err != nil || !got.Taken || got.First || got.Held {
			t.Errorf("%s: after the answer, slot = %+v, %v; want taken", robotsURL, got, err)
		}
	}
}
