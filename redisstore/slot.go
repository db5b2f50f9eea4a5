package redisstore

import (
	"context"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/redis/go-redis/v9"
)

// The Store is a fetch.SlotStore: the politeness slots of each host live in
// a third key beside its state and lease,
//
//	<prefix>{<robots.txt URL>}:slot   "<next> <back-off>", microseconds
//	                                  "<next> <back-off> <held>" while its first request is out
//
// in the same hash slot, and each SlotRequest is one call of one script on
// that key alone: one round trip, atomic, on Redis's own clock (TIME), so
// that the clocks of the workers do not matter. A host without the key
// has not answered yet (fetch.SlotValue.Known): its first slot adds the
// end of its hold, which a SlotAnswered, SlotSlowDown or SlotRelax drops.

var _ fetch.SlotStore = (*Store)(nil)

// slotMemory is how long a slot key lives past its slot and twice its
// back-off: a host asked again within it is known, and its first request
// does not go alone again.
const slotMemory = time.Minute

// slotScript applies a fetch.SlotRequest to the slot key KEYS[1], as
// fetch.SlotRequest.Apply does, at Redis's TIME, in microseconds: ARGV are
// the op, Delay, Within, Hold, MaxBackoff, Horizon, FirstHold and
// slotMemory. It returns the wait, 1 if a slot was taken, the back-off, and
// 1 if the slot taken is the host's first, 2 if the host's first request
// holds it. A value that is not two or three integers within its first 64
// bytes (another program's, another type, oversized: GETRANGE reads no
// more) is read as none, a host never asked; one further than the horizon
// as that far. The key expires once the slot, twice the back-off and
// slotMemory have passed, and not before the hold ends.
var slotScript = redis.NewScript(`
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local op, delay, within = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local hold, maxb, horizon = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local firsthold, memory = tonumber(ARGV[7]), tonumber(ARGV[8])
local ahead, backoff, known, held = 0, 0, false, 0
local v = redis.pcall("GETRANGE", KEYS[1], 0, 63)
if type(v) == "string" then
	local n, b, h = string.match(v, "^(%d+) (%d+)$")
	if n then
		known = true
	else
		n, b, h = string.match(v, "^(%d+) (%d+) (%d+)$")
	end
	if n then
		ahead, backoff = tonumber(n) - now, tonumber(b)
		if h then
			held = math.min(math.max(tonumber(h) - now, 0), horizon)
		end
	end
end
ahead = math.min(math.max(ahead, 0), horizon)
backoff = math.min(math.max(backoff, 0), maxb)
local wait, taken, flags = ahead, 0, 0
if op <= 2 then
	if held > 0 then
		wait, flags = math.max(ahead, held), 2
	elseif op == 1 or (op == 2 and ahead <= within) then
		taken = 1
		ahead = math.min(ahead + math.max(delay, backoff), horizon)
		if not known and firsthold > 0 then
			flags = 1
			held = math.min(math.max(firsthold, 0), horizon)
		end
	end
elseif op == 3 then
	if hold <= 0 then
		backoff = math.min(math.max(2 * backoff, 2 * delay, 1000000), maxb)
		hold = backoff
	end
	ahead = math.max(ahead, math.min(hold, horizon))
	known = true
elseif op == 4 then
	backoff = math.floor(backoff / 2)
	if backoff <= delay or backoff < 1000000 then
		backoff = 0
	end
	known = true
else
	known = true
end
if op ~= 0 then
	local ttl = math.floor((ahead + 2 * backoff + memory) / 1000) + 1
	if known then
		redis.call("SET", KEYS[1], string.format("%d %d", math.floor(now + ahead), math.floor(backoff)), "PX", ttl)
	else
		local heldAt = 0
		if held > 0 then
			heldAt = math.floor(now + held)
		end
		redis.call("SET", KEYS[1], string.format("%d %d %d", math.floor(now + ahead), math.floor(backoff), heldAt),
			"PX", math.max(ttl, math.floor(held / 1000) + 1))
	end
end
return {math.floor(wait), taken, math.floor(backoff), flags}`)

// SlotKey returns the key of the politeness slots of robotsURL.
func (s *Store) SlotKey(robotsURL string) string {
	return s.prefix + "{" + robotsURL + "}:slot"
}

// Slot applies req to the slots of robotsURL's host in one call of a
// script (EVALSHA; EVAL once per connection the script is not yet loaded
// on), on Redis's clock.
func (s *Store) Slot(ctx context.Context, robotsURL string, req fetch.SlotRequest) (fetch.SlotResult, error) {
	hold := req.Hold
	if hold > 0 {
		hold = max(hold, time.Microsecond) // a hold, not a back-off
	}
	res, err := slotScript.Run(ctx, s.rdb, []string{s.SlotKey(robotsURL)}, int(req.Op),
		req.Delay.Microseconds(), req.Within.Microseconds(), hold.Microseconds(),
		req.MaxBackoff.Microseconds(), req.Horizon.Microseconds(), req.FirstHold.Microseconds(),
		slotMemory.Microseconds()).Int64Slice()
	if err != nil {
		return fetch.SlotResult{}, s.failed(err)
	}
	if len(res) != 4 {
		return fetch.SlotResult{}, errBadValue
	}
	return fetch.SlotResult{
		Wait:    time.Duration(res[0]) * time.Microsecond,
		Taken:   res[1] == 1,
		Backoff: time.Duration(res[2]) * time.Microsecond,
		First:   res[3] == 1,
		Held:    res[3] == 2,
	}, nil
}
