package fetch_test

import (
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// TestSlotApplyFirst: a host's first slot holds it until it answers, or
// FirstHold has passed; no slot is taken meanwhile.
func TestSlotApplyFirst(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	const s = time.Second
	at := func(d time.Duration) time.Time { return now.Add(d) }
	req := func(op fetch.SlotOp, delay time.Duration) fetch.SlotRequest {
		return fetch.SlotRequest{Op: op, Delay: delay, Within: 5 * s, MaxBackoff: 60 * s, Horizon: 3600 * s, FirstHold: 30 * s}
	}
	held := fetch.SlotValue{Next: at(s), Held: at(30 * s)}
	tests := []struct {
		name    string
		req     fetch.SlotRequest
		v       fetch.SlotValue
		want    fetch.SlotValue
		wantRes fetch.SlotResult
	}{
		{"new/take", req(fetch.SlotTake, s), fetch.SlotValue{}, held, fetch.SlotResult{Taken: true, First: true}},
		{"new/try", req(fetch.SlotTry, 0), fetch.SlotValue{}, fetch.SlotValue{Next: now, Held: at(30 * s)}, fetch.SlotResult{Taken: true, First: true}},
		{"new/try-too-far", req(fetch.SlotTry, s), fetch.SlotValue{Next: at(9 * s)}, fetch.SlotValue{Next: at(9 * s)}, fetch.SlotResult{Wait: 9 * s}},
		{"new/peek", req(fetch.SlotPeek, s), fetch.SlotValue{}, fetch.SlotValue{Next: now}, fetch.SlotResult{}},
		{"new/no-first-hold", fetch.SlotRequest{Op: fetch.SlotTake, Delay: s, Horizon: 3600 * s}, fetch.SlotValue{}, fetch.SlotValue{Next: at(s)}, fetch.SlotResult{Taken: true}},
		{"held/take", req(fetch.SlotTake, s), held, held, fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"held/try", req(fetch.SlotTry, s), held, held, fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"held/peek", req(fetch.SlotPeek, s), held, held, fetch.SlotResult{Wait: 30 * s, Held: true}},
		{"held/no-delay", req(fetch.SlotTry, 0), fetch.SlotValue{Next: now, Held: at(2 * s)}, fetch.SlotValue{Next: now, Held: at(2 * s)}, fetch.SlotResult{Wait: 2 * s, Held: true}},
		{"held/slot-after-hold", req(fetch.SlotTake, s), fetch.SlotValue{Next: at(40 * s), Held: at(30 * s)}, fetch.SlotValue{Next: at(40 * s), Held: at(30 * s)}, fetch.SlotResult{Wait: 40 * s, Held: true}},
		{"held/expired", req(fetch.SlotTake, s), fetch.SlotValue{Next: at(-s), Held: at(-s)}, held, fetch.SlotResult{Taken: true, First: true}},
		{"held/poisoned-far", req(fetch.SlotPeek, s), fetch.SlotValue{Held: time.Unix(1<<62, 0)}, fetch.SlotValue{Next: now, Held: at(3600 * s)}, fetch.SlotResult{Wait: 3600 * s, Held: true}},
		{"answered", req(fetch.SlotAnswered, s), held, fetch.SlotValue{Next: at(s), Known: true}, fetch.SlotResult{Wait: s}},
		{"answered/then-take", req(fetch.SlotTake, s), fetch.SlotValue{Next: at(s), Known: true}, fetch.SlotValue{Next: at(2 * s), Known: true}, fetch.SlotResult{Wait: s, Taken: true}},
		{"answered/slow-down", func() fetch.SlotRequest { r := req(fetch.SlotSlowDown, 0); r.Hold = 3 * s; return r }(), fetch.SlotValue{Next: now, Held: at(30 * s)},
			fetch.SlotValue{Next: at(3 * s), Known: true}, fetch.SlotResult{}},
		{"answered/relax", req(fetch.SlotRelax, s), held, fetch.SlotValue{Next: at(s), Known: true}, fetch.SlotResult{Wait: s}},
		{"known/held-ignored", req(fetch.SlotTake, s), fetch.SlotValue{Known: true, Held: at(30 * s)}, fetch.SlotValue{Next: at(s), Known: true}, fetch.SlotResult{Taken: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, res := tt.req.Apply(tt.v, now)
			if !v.Next.Equal(tt.want.Next) || v.Backoff != tt.want.Backoff || v.Known != tt.want.Known || !v.Held.Equal(tt.want.Held) || res != tt.wantRes {
				t.Errorf("Apply(%+v) = %+v, %+v; want %+v, %+v", tt.v, v, res, tt.want, tt.wantRes)
			}
		})
	}
}
