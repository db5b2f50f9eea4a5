package fetch

import "time"

// clockSkew is how far ahead of a Cache's clock a time written in a shared
// State by another Cache may be and still be believed. A fleet's clocks
// should agree (NTP keeps them within milliseconds); a State fetched by a
// clock further ahead is read as fetched now and due now (see plausible).
const clockSkew = time.Minute

// plausible returns st, as read from the Store at now, with its times
// within what this Cache's clock and policy allow, so that a worker whose
// clock is wrong, or a damaged value, cannot keep a stale file or a run of
// failures in force beyond the policy's own bounds:
//
//   - A State fetched more than clockSkew after now was written by a clock
//     ahead of this one: its times are moved back together, so that it was
//     fetched now (the run of failures and the age of the good copy keep
//     their length), and it is due now, so this Cache fetches the file
//     itself rather than trust, for as long as the other clock is ahead,
//     that it is fresh.
//   - No time but NextFetch and GoodUntil is after FetchedAt.
//   - NextFetch is at most the longest delay the policy sets after
//     FetchedAt: after a failed fetch the largest of Retry, Retry503 and
//     DisallowFor (which bounds Retry-After), else the largest of Lifetime
//     and MaxLifetime; GoodUntil is at most that lifetime after GoodAt.
//
// A clock behind the others makes the States it writes look older than
// they are: the others fetch again sooner, and a run of failures it starts
// counts from further back. Keep the clocks of a fleet in agreement.
func (o *Options) plausible(st State, now time.Time) State {
	if st.FetchedAt.After(now.Add(clockSkew)) {
		shift := now.Sub(st.FetchedAt)
		for _, t := range []*time.Time{&st.GoodAt, &st.GoodUntil, &st.FailingSince, &st.FetchedAt, &st.NextFetch} {
			if !t.IsZero() {
				*t = t.Add(shift)
			}
		}
		st.NextFetch = now
	}
	for _, t := range []*time.Time{&st.GoodAt, &st.FailingSince} {
		if t.After(st.FetchedAt) {
			*t = st.FetchedAt
		}
	}
	lifetime, retry := max(o.Lifetime, o.MaxLifetime), max(o.Retry, o.Retry503, o.DisallowFor)
	if st.Outcome != Unreachable {
		retry = lifetime
	}
	if st.NextFetch.Sub(st.FetchedAt) > retry {
		st.NextFetch = st.FetchedAt.Add(retry)
	}
	if st.GoodUntil.Sub(st.GoodAt) > lifetime {
		st.GoodUntil = st.GoodAt.Add(lifetime)
	}
	return st
}
