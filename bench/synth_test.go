package bench

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gorep/robots"
)

// Generated files for the cost-growth benchmarks.
//
// A generated file is one "User-agent: *" group of n distinct rules whose
// paths look like those of real sites: a locale, one to four segments drawn
// from words a shop, a news site or a forum uses, sometimes an id or an
// extension. The generator is seeded, so a file is the same in every run.
//
// Two kinds:
//
//	mixed     nine rules in ten are literal prefixes ("/de/shop/cart/"), one
//	          in ten has a wildcard or an end anchor ("/*?sessionid=",
//	          "/blog/*/print$"), which is the mix of the large real files;
//	wildcard  every rule has a "*" or a "$", as in the wildcard-heavy real
//	          files (expert.de, kurier.de), many of them starting with "/*",
//	          which no literal prefix can rule out.
//
// A file of 50,000 rules is longer than robots.MaxSize: only its first
// robots.MaxSize bytes are read. Every library is given those same bytes
// (see capped), and the benchmarks report the rules actually kept.

// ruleCounts are the sizes of the generated files.
var ruleCounts = []int{10, 100, 1000, 10000, 50000}

// synthKinds are the kinds of generated files.
var synthKinds = []string{"mixed", "wildcard"}

// words are path segments of the kind real sites use.
var words = []string{
	"account", "admin", "ajax", "api", "archive", "article", "assets",
	"basket", "blog", "cart", "catalog", "category", "cgi-bin", "checkout",
	"comments", "compare", "content", "customer", "download", "events",
	"feed", "filter", "forum", "gallery", "help", "images", "include",
	"login", "logout", "media", "member", "news", "order", "page", "print",
	"private", "product", "products", "profile", "register", "review",
	"search", "share", "shop", "sort", "static", "store", "tag", "temp",
	"tmp", "topic", "track", "user", "video", "wishlist", "wp-admin",
	"wp-content", "wp-includes", "zoom",
}

// locales prefix some paths, as on sites with one tree per country.
var locales = []string{"", "", "", "/en", "/de", "/fr", "/es-mx", "/en-gb", "/pt-br", "/it"}

// params are query parameters that robots.txt files often block.
var params = []string{
	"sessionid", "sid", "sort", "order", "filter", "page", "ref", "utm_source",
	"replytocom", "add-to-cart", "color", "size", "q", "dir", "limit",
}

// exts are file extensions that robots.txt files often block.
var exts = []string{"pdf", "php", "json", "xml", "js", "css", "cgi", "asp", "doc", "zip"}

// synth returns a generated file of the kind with n rules, and 20 queries
// for it: 14 made from its own rules, wildcards filled in, and 6 common
// paths.
func synth(kind string, n int) (body []byte, urls []string) {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(len(kind))))
	var b bytes.Buffer
	b.WriteString("# generated: " + strconv.Itoa(n) + " rules, " + kind + "\n")
	b.WriteString("User-agent: *\n")
	seen := make(map[string]bool, n)
	var patterns []string
	for len(patterns) < n {
		var p string
		if kind == "wildcard" || rng.IntN(10) == 0 {
			p = wildcardPattern(rng)
		} else {
			p = literalPath(rng)
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		patterns = append(patterns, p)
		if rng.IntN(5) == 0 {
			b.WriteString("Allow: ")
		} else {
			b.WriteString("Disallow: ")
		}
		b.WriteString(p)
		b.WriteByte('\n')
	}
	for i := 0; i < 14; i++ {
		urls = append(urls, "https://example.com"+concrete(patterns[rng.IntN(len(patterns))], rng))
	}
	for _, p := range commonPaths[:6] {
		urls = append(urls, "https://example.com"+p)
	}
	return b.Bytes(), urls
}

// commonPaths are paths a crawler asks about on any site.
var commonPaths = []string{
	"/", "/index.html", "/search?q=robots", "/en/products/12345?color=red",
	"/blog/2024/05/a-post-title/", "/images/logo.png", "/login",
}

// literalPath returns a literal path such as "/de/shop/cart/" or
// "/product/4711.html".
func literalPath(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString(locales[rng.IntN(len(locales))])
	for i, k := 0, 1+rng.IntN(4); i < k; i++ {
		b.WriteByte('/')
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(4) == 0 {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(rng.IntN(100000)))
		}
	}
	switch rng.IntN(4) {
	case 0:
		b.WriteByte('/')
	case 1:
		b.WriteString("." + exts[rng.IntN(len(exts))])
	}
	return b.String()
}

// wildcardPattern returns a pattern with a "*" or a final "$", in one of
// the shapes real files use.
func wildcardPattern(rng *rand.Rand) string {
	w := func() string { return words[rng.IntN(len(words))] }
	id := func() string { return strconv.Itoa(rng.IntN(100000)) }
	switch rng.IntN(7) {
	case 0: // a query parameter anywhere
		return "/*?" + params[rng.IntN(len(params))] + "=" + id()
	case 1: // an extension at the end
		return "/*" + w() + "." + exts[rng.IntN(len(exts))] + "$"
	case 2: // a segment anywhere under a directory
		return literalDir(rng) + "/*/" + w() + "-" + id()
	case 3: // an exact page
		return literalPath(rng) + "$"
	case 4: // a directory with a parameter
		return literalDir(rng) + "/*?*" + params[rng.IntN(len(params))] + "=*&" + w()
	case 5: // a word anywhere
		return "*/" + w() + "/" + id()
	default: // a literal prefix with a trailing "*"
		return literalDir(rng) + "/" + w() + "-" + id() + "*"
	}
}

// literalDir returns a directory such as "/de/shop" without a final "/".
func literalDir(rng *rand.Rand) string {
	d := locales[rng.IntN(len(locales))] + "/" + words[rng.IntN(len(words))]
	if rng.IntN(2) == 0 {
		d += "/" + words[rng.IntN(len(words))]
	}
	return d
}

// concrete turns a pattern into a path it matches (or nearly: a filled-in
// "$" pattern may get a suffix), filling each "*" with a word.
func concrete(p string, rng *rand.Rand) string {
	p = strings.TrimSuffix(p, "$")
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '*' {
			b.WriteString(words[rng.IntN(len(words))])
			continue
		}
		b.WriteByte(p[i])
	}
	s := b.String()
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	if rng.IntN(3) == 0 {
		s += "/" + words[rng.IntN(len(words))]
	}
	return s
}

// capped returns the part of body that robots reads, cut at the last line
// end within robots.MaxSize, so that every library sees the same rules.
func capped(body []byte) []byte {
	if len(body) <= robots.MaxSize {
		return body
	}
	body = body[:robots.MaxSize]
	return body[:bytes.LastIndexByte(body, '\n')+1]
}

// ruleCount returns the number of rules of r that a query may use.
func ruleCount(r *robots.Robots) int {
	n := 0
	for _, rec := range r.Records() {
		n += len(rec.Rules)
	}
	return n
}

// longPath returns a path of exactly n bytes (n >= 10) that starts like a
// real one and goes on with segments of words and ids, as the URLs of
// faceted search or tracking parameters do.
func longPath(n int) string {
	var b strings.Builder
	b.WriteString("/de/shop/")
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[i%len(words)])
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('/')
	}
	return b.String()[:n]
}
