package lint

// Who fetches pages for what: AI and major search crawlers, in our own
// words from what the operators publish (Source), as quoted by
// github.com/ai-robots-txt and crawler directories on the date Checked
// (Amazon's page read itself). Check names them; the robotstxt command's
// audit reads the table.

import (
	"slices"
	"strings"
)

// A Purpose says what a crawler fetches pages for.
type Purpose uint8

const (
	// PurposeOther: none of the others, or several (an open data set, a
	// research crawler, a use not stated).
	PurposeOther Purpose = iota
	// PurposeTraining: collecting content to train AI models.
	PurposeTraining
	// PurposeAISearch: indexing content for AI search and AI answers.
	PurposeAISearch
	// PurposeUserFetch: fetching a page a user asked an AI assistant for.
	PurposeUserFetch
	// PurposeSearch: a classic search engine index.
	PurposeSearch
)

var purposeNames = [...]string{"other", "training", "ai-search", "user-fetch", "search"} // by value

// String returns "other", "training", "ai-search", "user-fetch" or "search".
func (p Purpose) String() string { return enumName(purposeNames[:], p, "purpose") }

// MarshalText encodes p as its name, such as "training".
func (p Purpose) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// An Honours says whether an operator states its crawler obeys robots.txt.
type Honours uint8

const (
	// HonoursUnstated: the operator does not say.
	HonoursUnstated Honours = iota
	// HonoursYes: the operator says the crawler obeys robots.txt.
	HonoursYes
	// HonoursNo: the operator says the crawler may not obey robots.txt.
	HonoursNo
)

var honoursNames = [...]string{HonoursUnstated: "unstated", HonoursYes: "yes", HonoursNo: "no"}

// String returns "unstated", "yes" or "no".
func (h Honours) String() string { return enumName(honoursNames[:], h, "honours") }

// MarshalText encodes h as its name, such as "yes".
func (h Honours) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// A Crawler is a known crawler, or a token that controls a use of content.
type Crawler struct {
	Token    string  `json:"token"` // the product token to write in a user-agent line
	Operator string  `json:"operator"`
	Purpose  Purpose `json:"purpose"`
	Robots   Honours `json:"robots_txt"` // whether the operator states that it obeys robots.txt
	// Retired reports that no crawler sends the token any more, although
	// many files still name it.
	Retired bool `json:"retired,omitempty"`
	// Control reports that the token is not a crawler (Google-Extended):
	// the operator's main crawler fetches and reads the token's group to
	// decide a use of the content; blocking it keeps no crawler out.
	Control bool   `json:"control_token,omitempty"`
	Source  string `json:"source,omitempty"` // the page where the operator documents the token, or ""
	Checked string `json:"checked"`          // the date, YYYY-MM-DD, the row was last checked
	Note    string `json:"note,omitempty"`   // says more, in a sentence, or is ""
}

// AI reports whether the crawler, or token, is about AI: its purpose is
// not PurposeSearch (a search index that also feeds AI answers, as bingbot's,
// is not counted: its Note says so).
func (c Crawler) AI() bool { return c.Purpose != PurposeSearch }

// tableChecked is the date the table was last checked; the pages where
// operators document several crawlers follow.
const (
	tableChecked  = "2026-11-23"
	srcOpenAI     = "https://developers.openai.com/api/docs/bots"
	srcAnthropic  = "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler"
	srcGoogle     = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"
	srcApple      = "https://support.apple.com/en-us/119829"
	srcPerplexity = "https://docs.perplexity.ai/guides/bots"
	srcMeta       = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"
)

var crawlers = []Crawler{
	{Token: "Amazonbot", Checked: tableChecked, Operator: "Amazon", Purpose: PurposeOther, Robots: HonoursYes, Source: "https://developer.amazon.com/amazonbot",
		Note: "improves Amazon's services, such as Alexa's answers; Amazon reads the robots meta tag noarchive as a wish that the page not train its models"},
	{Token: "ClaudeBot", Checked: tableChecked, Operator: "Anthropic", Purpose: PurposeTraining, Robots: HonoursYes, Source: srcAnthropic},
	{Token: "Claude-SearchBot", Checked: tableChecked, Operator: "Anthropic", Purpose: PurposeAISearch, Robots: HonoursYes, Source: srcAnthropic},
	{Token: "Claude-User", Checked: tableChecked, Operator: "Anthropic", Purpose: PurposeUserFetch, Robots: HonoursYes, Source: srcAnthropic},
	{Token: "Claude-Web", Checked: tableChecked, Operator: "Anthropic", Purpose: PurposeUserFetch, Robots: HonoursUnstated, Retired: true, Source: srcAnthropic,
		Note: "no crawler sends it any more: name Claude-User"},
	{Token: "anthropic-ai", Checked: tableChecked, Operator: "Anthropic", Purpose: PurposeTraining, Robots: HonoursUnstated, Retired: true, Source: srcAnthropic,
		Note: "no crawler sends it any more: name ClaudeBot"},
	{Token: "Applebot", Checked: tableChecked, Operator: "Apple", Purpose: PurposeSearch, Robots: HonoursYes, Source: srcApple,
		Note: "search in Siri, Spotlight and Safari"},
	{Token: "Applebot-Extended", Checked: tableChecked, Operator: "Apple", Purpose: PurposeTraining, Robots: HonoursYes, Control: true, Source: srcApple,
		Note: "not a crawler: Applebot fetches, and this token controls the use of the content to train Apple's foundation models"},
	{Token: "Baiduspider", Checked: tableChecked, Operator: "Baidu", Purpose: PurposeSearch, Robots: HonoursYes, Source: "https://www.baidu.com/search/robots_english.html"},
	{Token: "Brightbot", Checked: tableChecked, Operator: "Bright Data", Purpose: PurposeOther, Robots: HonoursUnstated, Source: "https://brightdata.com/brightbot",
		Note: "collects web data that Bright Data sells, including for AI; often written \"Brightbot 1.0\", which is matched as Brightbot"},
	{Token: "Bytespider", Checked: tableChecked, Operator: "ByteDance", Purpose: PurposeTraining, Robots: HonoursUnstated,
		Note: "ByteDance publishes no page for it; widely reported to collect training data and not to obey robots.txt"},
	{Token: "cohere-ai", Checked: tableChecked, Operator: "Cohere", Purpose: PurposeUserFetch, Robots: HonoursUnstated,
		Note: "Cohere publishes no page for it; reported as a fetcher acting for users of Cohere's assistant"},
	{Token: "cohere-training-data-crawler", Checked: tableChecked, Operator: "Cohere", Purpose: PurposeTraining, Robots: HonoursUnstated,
		Note: "Cohere publishes no page for it; reported to collect training data"},
	{Token: "CCBot", Checked: tableChecked, Operator: "Common Crawl", Purpose: PurposeOther, Robots: HonoursYes, Source: "https://commoncrawl.org/ccbot",
		Note: "an open web archive, widely used to train AI models"},
	{Token: "DuckDuckBot", Checked: tableChecked, Operator: "DuckDuckGo", Purpose: PurposeSearch, Robots: HonoursYes, Source: "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"},
	{Token: "Google-CloudVertexBot", Checked: tableChecked, Operator: "Google", Purpose: PurposeOther, Robots: HonoursYes, Source: srcGoogle,
		Note: "crawls at the request of site owners for their Vertex AI agents"},
	{Token: "Google-Extended", Checked: tableChecked, Operator: "Google", Purpose: PurposeTraining, Robots: HonoursYes, Control: true, Source: srcGoogle,
		Note: "not a crawler: Googlebot fetches, and this token controls the use of the content to train Gemini models and to ground their answers; it does not affect Google Search"},
	{Token: "Googlebot", Checked: tableChecked, Operator: "Google", Purpose: PurposeSearch, Robots: HonoursYes, Source: srcGoogle},
	{Token: "GoogleOther", Checked: tableChecked, Operator: "Google", Purpose: PurposeOther, Robots: HonoursYes, Source: srcGoogle,
		Note: "used by Google teams for research and development"},
	{Token: "FacebookBot", Checked: tableChecked, Operator: "Meta", Purpose: PurposeTraining, Robots: HonoursYes, Source: srcMeta,
		Note: "described by Meta as collecting public pages to train its speech recognition models"},
	{Token: "meta-externalagent", Checked: tableChecked, Operator: "Meta", Purpose: PurposeTraining, Robots: HonoursYes, Source: srcMeta,
		Note: "training AI models and indexing content for Meta's products"},
	{Token: "meta-externalfetcher", Checked: tableChecked, Operator: "Meta", Purpose: PurposeUserFetch, Robots: HonoursNo, Source: srcMeta,
		Note: "fetches on behalf of a user, and Meta says it may therefore bypass robots.txt"},
	{Token: "bingbot", Checked: tableChecked, Operator: "Microsoft", Purpose: PurposeSearch, Robots: HonoursYes, Source: "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
		Note: "Bing search, which also grounds Microsoft Copilot's answers"},
	{Token: "ChatGPT-User", Checked: tableChecked, Operator: "OpenAI", Purpose: PurposeUserFetch, Robots: HonoursNo, Source: srcOpenAI,
		Note: "fetches when a ChatGPT user asks; OpenAI says robots.txt rules may not apply to such fetches"},
	{Token: "GPTBot", Checked: tableChecked, Operator: "OpenAI", Purpose: PurposeTraining, Robots: HonoursYes, Source: srcOpenAI},
	{Token: "OAI-SearchBot", Checked: tableChecked, Operator: "OpenAI", Purpose: PurposeAISearch, Robots: HonoursYes, Source: srcOpenAI,
		Note: "search results in ChatGPT; not used for training"},
	{Token: "PerplexityBot", Checked: tableChecked, Operator: "Perplexity", Purpose: PurposeAISearch, Robots: HonoursYes, Source: srcPerplexity,
		Note: "indexes pages for Perplexity's answers; not used for training"},
	{Token: "Perplexity-User", Checked: tableChecked, Operator: "Perplexity", Purpose: PurposeUserFetch, Robots: HonoursNo, Source: srcPerplexity,
		Note: "fetches when a user asks; Perplexity says it generally ignores robots.txt"},
	{Token: "YandexBot", Checked: tableChecked, Operator: "Yandex", Purpose: PurposeSearch, Robots: HonoursYes, Source: "https://yandex.com/support/webmaster/en/robot-workings/check-yandex-robots.html"},
}

// KnownCrawlers returns the table of known crawlers, sorted by operator.
// The result is a copy.
func KnownCrawlers() []Crawler { return slices.Clone(crawlers) }

// LookupCrawler returns the known crawler whose token is token, compared
// case-insensitively as user-agent lines are. ok is false if there is
// none.
func LookupCrawler(token string) (c Crawler, ok bool) {
	for _, c := range crawlers {
		if strings.EqualFold(c.Token, token) {
			return c, true
		}
	}
	return Crawler{}, false
}
