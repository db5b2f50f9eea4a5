package lint_test

import (
	"fmt"

	"github.com/gorep/robots/lint"
)

func ExampleCheck() {
	body := []byte(`User-agent: *
Crawl-delay: 10
Disalow: /tmp
Disallow: private/
User-agent: MJ12bot
Disallow: /
`)
	for _, d := range lint.Check(body) {
		fmt.Printf("%s: %s [%s]\n", d.Severity, d, d.Code)
	}
	// Output:
	// info: robots: line 2: "Crawl-delay" is ignored by Google (Bing and Yandex read it) [ignored-by-google]
	// warning: robots: line 3: key "Disalow" is read as "disallow" by Google, but other crawlers may ignore the line [typo]
	// error: robots: line 4: pattern "private/" starts with neither "/" nor "*": it never matches [pattern-never-matches]
	// warning: robots: line 5: user-agent "MJ12bot" is matched as "MJ": only the leading letters, "-" and "_" count [cut-user-agent]
}

func ExampleLookupCrawler() {
	c, ok := lint.LookupCrawler("gptbot")
	fmt.Println(ok, c.Token, c.Operator, c.Purpose, c.Robots)
	c, _ = lint.LookupCrawler("anthropic-ai")
	fmt.Println(c.Token, "retired:", c.Retired)
	// Output:
	// true GPTBot OpenAI training yes
	// anthropic-ai retired: true
}

func ExampleKnownCrawlers() {
	training := 0
	for _, c := range lint.KnownCrawlers() {
		if c.Purpose == lint.PurposeTraining && !c.Retired {
			training++
		}
	}
	fmt.Println(training, "known crawlers or tokens collect content to train AI models")
	// Output:
	// 8 known crawlers or tokens collect content to train AI models
}
