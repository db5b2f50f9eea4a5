// Package fetch gets robots.txt files over HTTP and keeps them for as long as
// Google's crawlers would, so that a crawler asks one question per URL:
//
//	cache := fetch.NewCache(nil, "ExampleBot/1.0 (+https://example.com/bot)", fetch.Options{})
//	ok, err := cache.Allowed(ctx, "ExampleBot", "https://example.com/page")
//
// It implements the sections "Handling of errors and HTTP status codes" and
// "Caching" of Google's robots.txt specification
// (https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec),
// which refine RFC 9309, section 2.3. Get fetches one file:
//
//   - The file is fetched with a plain, non-conditional GET of the robots.txt
//     URL of the page (robots.URL), with the crawler's User-Agent header.
//   - At most five redirect hops are followed, to any host; a sixth hop or
//     a loop counts as a 404.
//   - Unless the caller gives its own client, no connection goes to the
//     crawler's own network (loopback, private, link-local addresses ...),
//     whatever a name resolves to or a redirect says, unless the robots.txt
//     URL names such an address itself (never a link-local address or a
//     cloud's metadata service): see Guard, and Options.AllowPrivate.
//   - At most robots.MaxSize bytes (500 KiB) of the body are read; the rest
//     is ignored.
//   - The status decides, as robots.FromStatus does: 2xx is parsed; 3xx
//     (after giving up), and 4xx except 429, allow everything; 429, 5xx and
//     any other code disallow everything.
//   - DNS errors, timeouts, refused, reset or interrupted connections and
//     truncated or badly chunked bodies are server errors: everything is
//     disallowed, and the error is returned so the caller can log it.
//   - After a 429 or a 503, a Retry-After field (RFC 9110, section 10.2.3:
//     delay-seconds or an HTTP-date) sets when the file is fetched again,
//     kept between Options.MinLifetime and Options.DisallowFor; without one,
//     the retry intervals below apply. Google's crawling documentation added
//     Retry-After to "Reduce the Google crawl rate" on 6 October 2026
//     (https://developers.google.com/crawling/docs/crawlers-fetchers/reduce-crawl-rate,
//     per its changelog; support itself was already documented under
//     "Temporarily pause or disable a website"): a site slows Google's
//     crawlers down with 429, 500 or 503 answers, and a Retry-After field
//     says when to come back. (Only the changelog entry and the start of that
//     page could be read here; the details are RFC 9110's.) This package
//     reads it for robots.txt fetches answered 429 or 503 only, keeps it in
//     the shared State so that a whole fleet waits alike, and never lets it
//     stretch the first phase of the error policy.
//
// A Cache keeps the files of many hosts and decides, from their history,
// which rules apply now:
//
//   - A fetched file, or the absence of one (4xx), is used for 24 hours, or
//     for the Cache-Control max-age of the response kept within bounds, then
//     fetched again.
//   - When a fetch fails (429, 5xx or network error), everything is
//     disallowed for the first 12 hours of failures while the file is fetched
//     again every hour, or every 10 minutes after a 503. Then the last good
//     copy is used, or no rules if there was none, until 30 days after the
//     first failure. After that the site is treated as having no robots.txt
//     if the caller reports it as otherwise reachable (Options.Reachable),
//     and as disallowing everything if not. Fetching goes on throughout.
//   - One fetch per host at a time: concurrent callers wait for it. With a
//     shared Store (Options.Store), one fetch per host for all the Caches
//     that share it: a fleet of crawler processes.
//   - The least recently used hosts are forgotten beyond a bound in bytes
//     (Options.MaxBytes) and in hosts (Options.MaxHosts); at most
//     Options.MaxFetches fetches run at once.
//
// All those durations and bounds are fields of Options, whose zero value
// means the defaults above.
//
// A Cache keeps a site's well-known files, such as its
// /.well-known/tdmrep.json, by the same mechanism and policy, each under
// its own URL (Cache.Site): one fetch per file, shared through the
// Store, the last good copy used while fetches fail; it is fetched only
// where robots.txt allows the crawler to fetch it. Cache.GetPage fetches a
// page as robots.txt allows. Package usage answers every use of a URL
// (package signals) with them.
//
// Cache.State says which part of the policy applies to a host and why
// ("disallow all: 503 since …, retried at …"); Cache.Decide reports
// robots.ReasonDisallowAll or robots.ReasonAllowAll when the policy rather
// than a rule decided; Cache.Stats counts hits, misses, fetches, waits and
// faults. A Cache asked with a full User-Agent header instead of a product
// token reduces it to its token (robots.ProductToken), never to the "*"
// group.
//
// A Transport (NewClient) refuses the requests robots.txt disallows; a
// Politeness spaces a crawler's requests to each host by its Crawl-delay or
// Request-rate, and slows down when the host answers 429, 500 or 503; a
// Queue hands workers the URLs whose hosts are free. With a Store that is
// also a SlotStore (redisstore), a fleet of processes shares those slots. A
// crawler learns a host's state from its first answer (a 503 and its
// Retry-After), so a host's first request goes alone: until the host has
// answered it, or PoliteOptions.FirstHold has passed, no second slot is
// handed out for it, in the whole fleet.
//
// Where Google's page leaves a number open, this package chooses: the retry
// intervals (1 hour, 10 minutes after a 503), the bounds on max-age (1 minute
// to 7 days), the point from which the 30 days are counted (the first failed
// fetch, as in RFC 9309) and what counts as a good copy (a 2xx file, or the
// absence of one signalled by a 4xx or too many redirects). FTP, which Google
// also fetches robots.txt files over, is not supported.
package fetch
