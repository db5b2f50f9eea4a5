package robots_test

import (
	"fmt"

	"github.com/gorep/robots"
)

// The examples of the package's API.

const body = `User-agent: *
Disallow: /includes/

User-agent: Googlebot
Allow: /includes/
Disallow: /*.php$

Sitemap: https://example.com/sitemap.xml
`

func ExampleParse() {
	r := robots.Parse([]byte(body))
	fmt.Println(r.Allowed("Googlebot", "https://example.com/includes/app.js"))
	fmt.Println(r.Allowed("OtherBot", "https://example.com/includes/app.js"))
	fmt.Println(r.Sitemaps())
	// Output:
	// true
	// false
	// [https://example.com/sitemap.xml]
}

func ExampleRobots_Allowed() {
	r := robots.Parse([]byte(body))
	for _, url := range []string{
		"https://example.com/index.php",
		"https://example.com/index.php?page=2",
		"https://example.com/includes/",
	} {
		fmt.Println(url, r.Allowed("Googlebot", url))
	}
	// Output:
	// https://example.com/index.php false
	// https://example.com/index.php?page=2 true
	// https://example.com/includes/ true
}

func ExampleRobots_Group() {
	r := robots.Parse([]byte(body))
	g := r.Group("Googlebot") // resolved once, for many URLs
	for _, path := range []string{"/a.php", "/b.html"} {
		fmt.Println(path, g.Allowed(path))
	}
	// Output:
	// /a.php false
	// /b.html true
}

func ExampleRobots_Decide() {
	r := robots.Parse([]byte(body))
	fmt.Println(r.Decide("Googlebot", "https://example.com/x.php"))
	fmt.Println(r.Decide("OtherBot", "https://example.com/includes/a.js"))
	fmt.Println(r.Decide("OtherBot", "https://example.com/about"))
	d := r.Decide("Googlebot", "https://example.com/x.php")
	fmt.Println(d.Allowed, d.Rule.Line, d.Rule.Pattern)
	// Output:
	// disallowed by line 6: Disallow: /*.php$
	// disallowed by line 2: Disallow: /includes/
	// allowed (no matching rule)
	// false 6 /*.php$
}

func ExampleFromStatus() {
	// The HTTP status of the robots.txt fetch decides how its body is used.
	for _, code := range []int{200, 404, 503} {
		r := robots.FromStatus(code, []byte(body))
		fmt.Println(code, r.Allowed("OtherBot", "https://example.com/includes/a.js"), r.Allowed("OtherBot", "https://example.com/"))
	}
	// Output:
	// 200 false true
	// 404 true true
	// 503 false false
}

func ExampleProductToken() {
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	token := robots.ProductToken(ua)
	fmt.Println(token)
	fmt.Println(robots.Parse([]byte(body)).Allowed(token, "https://example.com/includes/a.js"))
	// Output:
	// Googlebot
	// true
}

func ExampleRobots_CrawlDelay() {
	r := robots.Parse([]byte(`User-agent: bingbot
Crawl-delay: 1.5
Disallow: /search

User-agent: *
Crawl-delay: 10
`))
	for _, agent := range []string{"bingbot", "YandexBot"} {
		delay, ok := r.CrawlDelay(agent)
		fmt.Println(agent, delay, ok)
	}
	// Output:
	// bingbot 1.5s true
	// YandexBot 10s true
}

func ExampleRobots_Extras() {
	r := robots.Parse([]byte(`User-agent: *
Disallow: /cgi-bin/
Content-Signal: search=yes, ai-train=no
Host: www.example.com
`))
	for _, e := range r.Extras("") {
		fmt.Printf("line %d: %s = %q (group %d)\n", e.Line, e.Key, e.Value, e.Record)
	}
	host, _ := r.Host()
	fmt.Println("host:", host)
	// Output:
	// line 3: Content-Signal = "search=yes, ai-train=no" (group 0)
	// line 4: Host = "www.example.com" (group 0)
	// host: www.example.com
}

func ExampleRobots_Preferences() {
	body := []byte(`User-Agent: *
Content-Signal: search=yes, ai-train=no
Allow: /
Disallow: /never/
Content-Usage: / train-ai=n
Content-Usage: /ai-ok/ train-ai=y
`)
	r := robots.Parse(body)
	for _, url := range []string{"/test", "/ai-ok/test", "/never/test"} {
		p := r.Preferences("ExampleBot", url)
		fmt.Printf("%s: allowed %t, content-usage train-ai %s (lines %v), content-signal ai-train %s\n",
			url, p.Allowed, p.Usage.TrainAI, p.Usage.Lines, p.Signals.AITrain)
	}
	// Output:
	// /test: allowed true, content-usage train-ai no (lines [5]), content-signal ai-train no
	// /ai-ok/test: allowed true, content-usage train-ai yes (lines [6]), content-signal ai-train no
	// /never/test: allowed false, content-usage train-ai unknown (lines []), content-signal ai-train no
}

func ExampleURL() {
	u, err := robots.URL("https://User@WWW.Exämple.com:443/a/b?c=d#e")
	fmt.Println(u, err)
	_, err = robots.URL("/a/b")
	fmt.Println(err)
	// Output:
	// https://www.xn--exmple-cua.com/robots.txt <nil>
	// robots: URL "/a/b" is relative: it has no scheme
}

func ExampleGoverns() {
	const robotsURL = "https://example.com/robots.txt"
	for _, page := range []string{
		"https://example.com:443/folder/file",
		"http://example.com/",       // other scheme
		"https://example.com:8181/", // other port
		"https://www.example.com/",  // other host
	} {
		fmt.Println(robots.Governs(robotsURL, page), page)
	}
	// Output:
	// true https://example.com:443/folder/file
	// false http://example.com/
	// false https://example.com:8181/
	// false https://www.example.com/
}
