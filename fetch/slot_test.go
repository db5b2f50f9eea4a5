package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

func TestSlotApply(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	const s = time.Second
	at := func(d time.Duration) time.Time { return now.Add(d) }
	base := fetch.SlotRequest{Delay: s, MaxBackoff: 60 * s, Horizon: 3600 * s}
	with := func(op fetch.SlotOp, f func(*fetch.SlotRequest)) fetch.SlotRequest {
		r := base
		r.Op = op
		if f != nil {
			f(&r)
		}
		return r
	}
	tests := []struct {
		name    string
		req     fetch.SlotRequest
		v       fetch.SlotValue
		want    fetch.SlotValue
		wantRes fetch.SlotResult
	}{
		{"peek/none", with(fetch.SlotPeek, nil), fetch.SlotValue{}, fetch.SlotValue{Next: now}, fetch.SlotResult{}},
		{"peek/busy", with(fetch.SlotPeek, nil), fetch.SlotValue{Next: at(2 * s)}, fetch.SlotValue{Next: at(2 * s)}, fetch.SlotResult{Wait: 2 * s}},
		{"take/free", with(fetch.SlotTake, nil), fetch.SlotValue{}, fetch.SlotValue{Next: at(s)}, fetch.SlotResult{Taken: true}},
		{"take/past", with(fetch.SlotTake, nil), fetch.SlotValue{Next: at(-5 * s)}, fetch.SlotValue{Next: at(s)}, fetch.SlotResult{Taken: true}},
		{"take/busy", with(fetch.SlotTake, nil), fetch.SlotValue{Next: at(2 * s)}, fetch.SlotValue{Next: at(3 * s)}, fetch.SlotResult{Wait: 2 * s, Taken: true}},
		{"take/backoff-spaces", with(fetch.SlotTake, nil), fetch.SlotValue{Backoff: 8 * s}, fetch.SlotValue{Next: at(8 * s), Backoff: 8 * s}, fetch.SlotResult{Taken: true, Backoff: 8 * s}},
		{"try/within", with(fetch.SlotTry, func(r *fetch.SlotRequest) { r.Within = 2 * s }), fetch.SlotValue{Next: at(2 * s)}, fetch.SlotValue{Next: at(3 * s)}, fetch.SlotResult{Wait: 2 * s, Taken: true}},
		{"try/too-far", with(fetch.SlotTry, func(r *fetch.SlotRequest) { r.Within = s }), fetch.SlotValue{Next: at(2 * s)}, fetch.SlotValue{Next: at(2 * s)}, fetch.SlotResult{Wait: 2 * s}},
		{"slow-down/retry-after", with(fetch.SlotSlowDown, func(r *fetch.SlotRequest) { r.Hold = 3 * s }), fetch.SlotValue{Next: at(s)}, fetch.SlotValue{Next: at(3 * s)}, fetch.SlotResult{Wait: s}},
		{"slow-down/retry-after-shorter", with(fetch.SlotSlowDown, func(r *fetch.SlotRequest) { r.Hold = s }), fetch.SlotValue{Next: at(5 * s)}, fetch.SlotValue{Next: at(5 * s)}, fetch.SlotResult{Wait: 5 * s}},
		{"slow-down/retry-after-horizon", with(fetch.SlotSlowDown, func(r *fetch.SlotRequest) { r.Hold = 1e6 * s }), fetch.SlotValue{}, fetch.SlotValue{Next: at(3600 * s)}, fetch.SlotResult{}},
		{"slow-down/first-backoff", with(fetch.SlotSlowDown, nil), fetch.SlotValue{}, fetch.SlotValue{Next: at(2 * s), Backoff: 2 * s}, fetch.SlotResult{Backoff: 2 * s}},
		{"slow-down/no-delay", with(fetch.SlotSlowDown, func(r *fetch.SlotRequest) { r.Delay = 0 }), fetch.SlotValue{}, fetch.SlotValue{Next: at(s), Backoff: s}, fetch.SlotResult{Backoff: s}},
		{"slow-down/doubles", with(fetch.SlotSlowDown, nil), fetch.SlotValue{Backoff: 8 * s}, fetch.SlotValue{Next: at(16 * s), Backoff: 16 * s}, fetch.SlotResult{Backoff: 16 * s}},
		{"slow-down/capped", with(fetch.SlotSlowDown, nil), fetch.SlotValue{Backoff: 50 * s}, fetch.SlotValue{Next: at(60 * s), Backoff: 60 * s}, fetch.SlotResult{Backoff: 60 * s}},
		{"relax/halves", with(fetch.SlotRelax, nil), fetch.SlotValue{Next: at(s), Backoff: 8 * s}, fetch.SlotValue{Next: at(s), Backoff: 4 * s}, fetch.SlotResult{Wait: s, Backoff: 4 * s}},
		{"relax/ends-at-delay", with(fetch.SlotRelax, nil), fetch.SlotValue{Backoff: 2 * s}, fetch.SlotValue{Next: now}, fetch.SlotResult{}},
		// Values no Politeness writes: a slot past the horizon (a poisoned
		// value, a clock far ahead), a back-off past its cap, negatives.
		{"poisoned/far-next", with(fetch.SlotTake, nil), fetch.SlotValue{Next: at(1e9 * s)}, fetch.SlotValue{Next: at(3600 * s)}, fetch.SlotResult{Wait: 3600 * s, Taken: true}},
		{"poisoned/max-time", with(fetch.SlotPeek, nil), fetch.SlotValue{Next: time.Unix(1<<62, 0)}, fetch.SlotValue{Next: at(3600 * s)}, fetch.SlotResult{Wait: 3600 * s}},
		{"poisoned/huge-backoff", with(fetch.SlotTake, nil), fetch.SlotValue{Backoff: 1 << 62}, fetch.SlotValue{Next: at(60 * s), Backoff: 60 * s}, fetch.SlotResult{Taken: true, Backoff: 60 * s}},
		{"poisoned/negative-backoff", with(fetch.SlotTake, nil), fetch.SlotValue{Backoff: -5 * s}, fetch.SlotValue{Next: at(s)}, fetch.SlotResult{Taken: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, res := tt.req.Apply(tt.v, now)
			if !v.Next.Equal(tt.want.Next) || v.Backoff != tt.want.Backoff || res != tt.wantRes {
				t.Errorf("Apply(%+v) = %v %v, %+v; want %v %v, %+v", tt.v, v.Next.Sub(now), v.Backoff, res,
					tt.want.Next.Sub(now), tt.want.Backoff, tt.wantRes)
			}
		})
	}
}

// A slotStore is a SlotStore in memory, with its own clock, shared by the
// Politenesses of a test as a fleet shares Redis; down makes every call
// fail.
type slotStore struct {
	*memStore
	now   func() time.Time
	down  atomic.Bool
	calls atomic.Int64
	mu    sync.Mutex
	slots map[string]fetch.SlotValue
}

func newSlotStore(now func() time.Time) *slotStore {
	return &slotStore{memStore: newMemStore(), now: now, slots: map[string]fetch.SlotValue{}}
}

var errDown = errors.New("store down")

func (s *slotStore) Slot(_ context.Context, robotsURL string, req fetch.SlotRequest) (fetch.SlotResult, error) {
	s.calls.Add(1)
	if s.down.Load() {
		return fetch.SlotResult{}, errDown
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, res := req.Apply(s.slots[robotsURL], s.now())
	s.slots[robotsURL] = v
	return res, nil
}

// TestPolitenessSharedSlots checks that two Politenesses on one SlotStore
// space their requests to a host as one, whatever their own clocks say,
// and that while the Store fails each takes slots alone, FleetSize times
// the delay apart, and says so.
func TestPolitenessSharedSlots(t *testing.T) {
	host := robotsServer(t, "User-agent: *\nCrawl-delay: 2\n")
	storeClock := newSleepClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	store := newSlotStore(storeClock.Now)
	var ps []*fetch.Politeness
	var clocks []func() time.Time
	for i := range 2 {
		// The workers' clocks are off by a day, either way: they do not
		// count.
		skewed := func() time.Time { return storeClock.Now().Add(time.Duration(2*i-1) * 24 * time.Hour) }
		cache := fetch.NewCache(nil, testUA, fetch.Options{Store: store, StoreFault: func(string, error) {}})
		p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{Now: skewed, FleetSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		ps, clocks = append(ps, p), append(clocks, skewed)
	}
	ctx := t.Context()
	reserve := func(i int) time.Duration {
		t.Helper()
		start, err := ps[i].Reserve(ctx, host.URL+"/page")
		if err != nil {
			t.Fatal(err)
		}
		return start.Sub(clocks[i]())
	}
	const s = time.Second
	for i, want := range []time.Duration{0, 2 * s, 4 * s, 6 * s} {
		if got := reserve(i % 2); got != want {
			t.Errorf("shared reservation %d by worker %d starts in %v, want %v", i, i%2, got, want)
		}
	}
	// Down: worker 0 goes on alone, from the slot it last saw (4 s, and
	// the delay), FleetSize × 2 s apart; one call fails, the next is not
	// tried for storeBackoff.
	store.down.Store(true)
	calls := store.calls.Load()
	for i, want := range []time.Duration{6 * s, 10 * s} {
		if got := reserve(0); got != want {
			t.Errorf("reservation %d alone starts in %v, want %v", i, got, want)
		}
	}
	if got := store.calls.Load() - calls; got != 1 {
		t.Errorf("calls to the Store while down: %d, want 1 (then set aside)", got)
	}
	want := fetch.WaitStats{Slots: 4, Shared: 2, Alone: 2, StoreFaults: 1}
	if got := ps[0].Stats(); got != want {
		t.Errorf("Stats() while down = %+v, want %+v", got, want)
	}
	// Back: shared again once the Store's second aside has passed.
	store.down.Store(false)
	time.Sleep(1100 * time.Millisecond)
	if got := reserve(1); got != 8*s {
		t.Errorf("reservation after the Store came back starts in %v, want 8s (the shared slot)", got)
	}
	if got := ps[1].Stats(); got.Shared != 3 || got.Alone != 0 {
		t.Errorf("worker 1 Stats() = %+v, want 3 shared, none alone", got)
	}
}

// TestPolitenessSlowDown checks that answers 429, 500 and 503 move a host's
// next slot, by the Retry-After (capped) or a back-off that good answers
// relax, through a Transport's Politeness (the Transport not Polite: it
// has one all the same).
func TestPolitenessSlowDown(t *testing.T) {
	var mu sync.Mutex
	status, retryAfter := 200, ""
	site := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nCrawl-delay: 1\n"))
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(status)
	})
	clock := newSleepClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	tr, err := fetch.NewTransport(http.DefaultTransport, testUA, fetch.TransportOptions{
		Politeness: fetch.PoliteOptions{Now: clock.Now, Sleep: clock.Sleep, MaxRetryAfter: time.Minute, MaxBackoff: 8 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	p := tr.Politeness()
	page := site.URL + "/page"
	const s = time.Second
	steps := []struct {
		status     int
		retryAfter string
		want       time.Duration // until the host is free after the answer
	}{
		{200, "", 0},
		{503, "30", 30 * s},
		{429, "3600", 60 * s},     // capped by MaxRetryAfter
		{429, "date+45s", 45 * s}, // an HTTP-date
		{500, "", 2 * s},          // back-off: twice the crawl-delay
		{503, "", 4 * s},          // doubled
		{503, "", 8 * s},          // doubled
		{503, "", 8 * s},          // capped by MaxBackoff
		{200, "", 0},              // relaxed to 4 s: spacing, not a hold
		{404, "", 0},              // changes nothing
		{200, "", 0},              // relaxed to 2 s
		{200, "", 0},              // relaxed to 1 s, no more than the delay: none
	}
	for i, st := range steps {
		mu.Lock()
		status, retryAfter = st.status, st.retryAfter
		if retryAfter == "date+45s" {
			retryAfter = clock.Now().Add(45 * s).Format(http.TimeFormat)
		}
		mu.Unlock()
		resp, err := client.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		next, err := p.Next(t.Context(), page)
		if err != nil {
			t.Fatal(err)
		}
		if got := next.Sub(clock.Now()); got != st.want {
			t.Errorf("step %d: after %d Retry-After %q the host is free in %v, want %v", i, st.status, st.retryAfter, got, st.want)
		}
		clock.advance(next.Sub(clock.Now()) + 10*s) // past any slot and spacing
	}
	if got := p.Stats(); got.SlowDowns != 7 || got.Slots != 0 {
		t.Errorf("Stats() = %+v, want 7 slow-downs and no slot taken (not Polite)", got)
	}
	// Spacing during a back-off: after two more 503s (2 s, then 4 s), two
	// reservations are 4 s apart, not 1.
	mu.Lock()
	status, retryAfter = 503, ""
	mu.Unlock()
	for range 2 {
		resp, err := client.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	clock.advance(time.Minute)
	a, _ := p.Reserve(t.Context(), page)
	b, _ := p.Reserve(t.Context(), page)
	if got := b.Sub(a); got != 4*s {
		t.Errorf("two slots during a 4 s back-off are %v apart, want 4s", got)
	}
}

// TestPolitenessWithoutTransport checks that a Politeness is never nil and
// its Stats never panic.
func TestPolitenessWithoutTransport(t *testing.T) {
	tr, err := fetch.NewTransport(nil, testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Politeness() == nil {
		t.Fatal("Politeness() = nil for a transport that is not Polite")
	}
	if got := tr.Politeness().Stats(); got != (fetch.WaitStats{}) {
		t.Errorf("Stats() = %+v, want zero", got)
	}
	var p *fetch.Politeness
	if got := p.Stats(); got != (fetch.WaitStats{}) {
		t.Errorf("nil Stats() = %+v, want zero", got)
	}
}

// TestPolitenessHugeOptions checks that options at the edge of a
// time.Duration space requests still, rather than overflow to none.
func TestPolitenessHugeOptions(t *testing.T) {
	host := robotsServer(t, "User-agent: *\nCrawl-delay: 86400\n")
	clock := newSleepClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	store := newSlotStore(clock.Now)
	store.down.Store(true) // alone, FleetSize times the delay
	for _, withStore := range []bool{false, true} {
		opts := fetch.Options{}
		if withStore {
			opts = fetch.Options{Store: store, StoreFault: func(string, error) {}}
		}
		p, err := fetch.NewPoliteness(fetch.NewCache(nil, testUA, opts), fetch.PoliteOptions{
			Now: clock.Now, MaxDelay: 1 << 62, MaxRetryAfter: 1 << 62, MaxBackoff: 1 << 62, FleetSize: 1 << 40,
		})
		if err != nil {
			t.Fatal(err)
		}
		a, err := p.Reserve(t.Context(), host.URL+"/a")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := p.Reserve(t.Context(), host.URL+"/b")
		if gap := b.Sub(a); gap < 24*time.Hour {
			t.Errorf("store %t: two slots %v apart, want at least the crawl-delay, a day", withStore, gap)
		}
	}
}
