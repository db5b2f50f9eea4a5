package robots

// FromStatus returns the Robots to use after fetching a robots.txt file
// that answered with HTTP status code and body, as Google does (and RFC
// 9309, section 2.3):
//
//   - 2xx: the body is parsed (it is ignored otherwise).
//   - 3xx: the caller follows redirects (at least five hops) and passes
//     the final response; a 3xx here means it gave up: allow all.
//   - 4xx but 429: as if there were no robots.txt: allow all.
//   - 429, 5xx and any other code (1xx included): a server error:
//     disallow all.
//
// Network errors (DNS failures, timeouts, resets, truncated bodies) are
// server errors too: use DisallowAll. Google then keeps the last good copy
// up to 30 days, and treats a site whose robots.txt stays unreachable
// longer, but which is otherwise reachable, as having none; package fetch
// implements that policy.
func FromStatus(code int, body []byte) *Robots {
	switch {
	case 200 <= code && code <= 299:
		return Parse(body)
	case 300 <= code && code <= 499 && code != 429:
		return AllowAll()
	}
	return DisallowAll()
}
