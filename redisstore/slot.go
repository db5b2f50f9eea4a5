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
//
// in the same hash slot, and each SlotRequest is one call of one script on
// that key alone: one round trip, atomic, on Redis's own clock (TIME), so
// that the clocks of the workers do not matter.

var _ fetch.SlotStore = (*Store)(nil)

// slotScript applies a fetch.SlotRequest to the slot key KEYS[1], as
// fetch.SlotRequest.Apply does, at Redis's TIME, in microseconds: ARGV are
// the op, Delay, Within, Hold, MaxBackoff and Horizon. It returns the wait,
// 1 if a slot was taken, and the back-off. A value that is not two
// integers within its first 64 bytes (another program's, another type,
// oversized: GETRANGE reads no more) is read as none;
// one further than the horizon as that far. The key expires once the slot
// and twice the back-off have passed, and a second more.
var slotScript = redis.NewScript(`
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local op, delay, within = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local hold, maxb, horizon = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local ahead, backoff = 0, 0
local v = redis.pcall("GETRANGE", KEYS[1], 0, 63)
if type(v) == "string" then
	local n, b = string.match(v, "^(%d+) (%d+)$")
	if n then
		ahead, backoff = tonumber(n) - now, tonumber(b)
	end
end
ahead = math.min(math.max(ahead, 0), horizon)
backoff = math.min(math.max(backoff, 0), maxb)
local wait, taken = ahead, 0
if op == 1 or (op == 2 and ahead <= within) then
	taken = 1
	ahead = math.min(ahead + math.max(delay, backoff), horizon)
elseif op == 3 then
	if hold <= 0 then
		backoff = math.min(math.max(2 * backoff, 2 * delay, 1000000), maxb)
		hold = backoff
	end
	ahead = math.max(ahead, math.min(hold, horizon))
elseif op == 4 then
	backoff = math.floor(backoff / 2)
	if backoff <= delay or backoff < 1000000 then
		backoff = 0
	end
end
if op ~= 0 then
	redis.call("SET", KEYS[1], string.format("%d %d", math.floor(now + ahead), math.floor(backoff)),
		"PX", math.floor((ahead + 2 * backoff) / 1000) + 1000)
end
return {math.floor(wait), taken, math.floor(backoff)}`)

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
		req.MaxBackoff.Microseconds(), req.Horizon.Microseconds()).Int64Slice()
	if err != nil {
		return fetch.SlotResult{}, s.failed(err)
	}
	if len(res) != 3 {
		return fetch.SlotResult{}, errBadValue
	}
	return fetch.SlotResult{
		Wait:    time.Duration(res[0]) * time.Microsecond,
		Taken:   res[1] == 1,
		Backoff: time.Duration(res[2]) * time.Microsecond,
	}, nil
}
