package robots

// FromStatus returns the Robots to use after fetching a robots.txt file
// that answered with HTTP status code and body, following Google's policy
// (and RFC 9309, section 2.3):
//
//   - 2xx (success): the body is parsed.
//   - 3xx (redirection): the caller is expected to follow redirects itself,
//     at least five hops, and to call FromStatus with the final response. A
//     3xx here means it gave up (too many hops, or a loop): allow all, as for
//     a 404.
//   - 4xx except 429: as if there were no robots.txt: allow all.
//   - 429 (too many requests), 5xx and any other code, including codes
//     outside 100–599 and 1xx as a final status: a server error: disallow
//     all.
//
// The body is ignored unless the status is 2xx. Network errors (DNS
// failures, timeouts, resets, truncated bodies) are server errors too: the
// caller should use DisallowAll for them. Google then keeps using the last
// good copy of the file for up to 30 days, and treats a site whose
// robots.txt stays unreachable longer, but which is otherwise reachable, as
// having none; the fetch subpackage implements that policy.
func FromStatus(code int, body []byte) *Robots {
	switch {
	case 200 <= code && code <= 299:
		return Parse(body)
	case 300 <= code && code <= 399:
		return AllowAll()
	case code == 429:
		return DisallowAll()
	case 400 <= code && code <= 499:
		return AllowAll()
	}
	return DisallowAll()
}
