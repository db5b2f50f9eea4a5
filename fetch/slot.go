package fetch

import (
	"context"
	"time"
)

// Politeness slots: when each host may next be asked for a page, kept where
// every worker of a fleet sees it (a SlotStore), or in memory.

// A SlotStore is a Store that also keeps the politeness slots of hosts, so
// that every Politeness of a fleet (many processes on many machines) spaces
// its requests to a host as one crawler would: a Politeness whose Cache has
// a SlotStore takes each slot there, in one call. The package redisstore
// implements it on Redis and Redis Cluster (one key per host, one script
// call per slot).
//
// Slot applies one SlotRequest to the slot of robotsURL's host atomically,
// as SlotRequest.Apply does on the value kept, with the Store's own clock as
// now: the result is a wait counted from when the Store applied it, not a
// time, so that workers whose clocks disagree still share one schedule. A
// value that cannot be read as a slot is read as none (SlotValue{}); one
// further than the request's Horizon is read as that far. Slot must return
// soon: a Politeness gives each call the Cache's Options.StoreTimeout, and
// on an error takes its slots in memory for a while (see
// PoliteOptions.FleetSize).
type SlotStore interface {
	Store
	Slot(ctx context.Context, robotsURL string, req SlotRequest) (SlotResult, error)
}

// A SlotOp is what a SlotRequest does to a host's slot.
type SlotOp uint8

const (
	// SlotPeek takes nothing: the result's Wait is how long until the host
	// is free.
	SlotPeek SlotOp = iota
	// SlotTake takes the host's next free slot, however far: the result's
	// Wait is how long until it starts, and the slot after it is
	// max(Delay, back-off) later. While the host's first request is
	// unanswered, it takes nothing (SlotResult.Held), as SlotTry and
	// SlotPeek then do.
	SlotTake
	// SlotTry takes the next free slot only if it starts within Within;
	// otherwise it takes nothing, and Wait says how long until the host is
	// free.
	SlotTry
	// SlotSlowDown obeys a site that asked the crawler to slow down (a 429,
	// 500 or 503 answer): with Hold > 0 (its Retry-After), the next slot is
	// at least Hold away; without, the back-off doubles (at least twice
	// Delay and a second, at most MaxBackoff) and the next slot is at least
	// the back-off away.
	SlotSlowDown
	// SlotRelax halves the back-off after a good answer, and drops it once
	// it is no more than Delay or under a second.
	SlotRelax
	// SlotAnswered says that the host answered its first request: its
	// slots are handed out again (see SlotValue.Known).
	SlotAnswered
)

// minBackoff is the least back-off after a slow-down without Retry-After,
// for a host that asks for no delay.
const minBackoff = time.Second

// A SlotRequest is one atomic change to a host's slot.
type SlotRequest struct {
	Op SlotOp
	// Delay is the host's delay between two request starts, as its
	// robots.txt and the PoliteOptions set it.
	Delay time.Duration
	// Within bounds how soon a slot SlotTry takes must start.
	Within time.Duration
	// Hold is how long SlotSlowDown keeps the host free of requests (a
	// Retry-After, already capped); 0 for an exponential back-off.
	Hold time.Duration
	// MaxBackoff caps the back-off.
	MaxBackoff time.Duration
	// Horizon bounds how far ahead of now a slot may be: a value further
	// (a poisoned one, a clock far ahead) is read as Horizon away.
	Horizon time.Duration
	// FirstHold bounds how long the first request to a host holds it (see
	// SlotValue.Known): a first request that never gets an answer, or
	// whose answer is never reported, holds the host that long at most.
	// With 0, the slot taken does not hold the host (a caller that will
	// not report its answer), though it waits for a hold another took.
	FirstHold time.Duration
}

// A SlotValue is what a SlotStore keeps for a host: the start of its next
// free slot, its back-off (the spacing a site's slow-down imposes on top
// of its delay; 0 if none), and whether it has answered a request.
//
// A crawler learns a host's state from its first answer (a 503 with a
// Retry-After, a 429), so the first request to a host goes alone: until
// the host has answered once (any status, or a failed request), no second
// slot is handed out, lest requests already sent reach the host after it
// asked for a pause. The zero SlotValue is a host never asked: the slot
// taken there is the host's first (SlotResult.First), and holds the host
// until Held, FirstHold after it, or a SlotAnswered (or SlotSlowDown,
// SlotRelax) says the host answered, whichever comes first.
type SlotValue struct {
	Next    time.Time
	Backoff time.Duration
	// Known reports whether the host has answered a request.
	Known bool
	// Held is when the host's first request, taken and not answered,
	// stops holding the host; zero if none.
	Held time.Time
}

// A SlotResult is what a SlotRequest found.
type SlotResult struct {
	// Wait is how long after now the slot taken starts (SlotTake, SlotTry
	// when Taken), or the host is next free (otherwise); 0 if now.
	Wait time.Duration
	// Taken reports whether a slot was taken.
	Taken bool
	// Backoff is the host's back-off after the request.
	Backoff time.Duration
	// First reports that the slot taken is the host's first: the host is
	// held until SlotAnswered says it answered.
	First bool
	// Held reports that the host's first request is unanswered, so no
	// slot was taken: Wait is how long until the hold ends at the latest.
	Held bool
}

// Apply returns v after req at now, and what req found: the definition of
// a slot that every SlotStore implements. Its arithmetic saturates: no
// value read, however wrong, takes the result beyond Horizon.
func (req SlotRequest) Apply(v SlotValue, now time.Time) (SlotValue, SlotResult) {
	horizon := max(req.Horizon, 0)
	ahead := max(v.Next.Sub(now), 0) // Sub saturates
	ahead = min(ahead, horizon)
	var held time.Duration
	if !v.Known {
		held = min(max(v.Held.Sub(now), 0), horizon)
	}
	backoff := min(max(v.Backoff, 0), max(req.MaxBackoff, 0))
	delay := max(req.Delay, 0)
	known := v.Known
	res := SlotResult{Wait: ahead}
	switch req.Op {
	case SlotPeek, SlotTake, SlotTry:
		if held > 0 { // the first request is out: no slot
			res.Wait, res.Held = max(ahead, held), true
			break
		}
		if req.Op == SlotPeek || req.Op == SlotTry && ahead > req.Within {
			break
		}
		res.Taken = true
		ahead = min(ahead+max(delay, backoff), horizon)
		if !known && req.FirstHold > 0 {
			res.First = true
			held = min(max(req.FirstHold, 0), horizon)
		}
	case SlotSlowDown:
		hold := min(max(req.Hold, 0), horizon)
		if req.Hold <= 0 {
			backoff = min(max(2*backoff, 2*delay, minBackoff), max(req.MaxBackoff, 0))
			hold = min(backoff, horizon)
		}
		ahead = max(ahead, hold)
		known = true
	case SlotRelax:
		if backoff /= 2; backoff <= delay || backoff < minBackoff {
			backoff = 0
		}
		known = true
	case SlotAnswered:
		known = true
	}
	res.Backoff = backoff
	out := SlotValue{Next: now.Add(ahead), Backoff: backoff, Known: known}
	if !known && held > 0 {
		out.Held = now.Add(held)
	}
	return out, res
}
