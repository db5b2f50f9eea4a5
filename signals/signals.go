// Package signals reads what a site says, beyond robots.txt, about the use
// of its pages, and combines it into one answer per use.
//
// The signals read, each in its own file:
//
//   - robots meta tags and X-Robots-Tag headers (robotsmeta.go, date.go),
//     as Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag
//     specifications" describe them, with Bing's noarchive and nocache and
//     the noai, noimageai and noml extensions; HTML is read only up to the
//     end of its head (head.go);
//   - TDMRep (tdmrep.go), W3C Community Group Final Report of 10 May 2024:
//     /.well-known/tdmrep.json, the tdm-reservation and tdm-policy headers
//     and meta tags, later layers superseding earlier ones;
//   - the Content-Usage header (usage.go), draft-ietf-aipref-attach-05
//     (18 August 2026) in the vocabulary of draft-ietf-aipref-vocab-08
//     (14 September 2026), and Cloudflare's Content-Signal header;
//   - robots.txt itself, with its Content-Usage and Content-Signal lines,
//     through package robots.
//
// Decide answers, for a URL, a crawler and what the crawler has seen, each
// use — fetch, index, snippet, ai-input, ai-train — with allow, deny,
// unknown or conditional, and the signals that decided. robots.txt alone
// decides fetch; a page robots.txt disallows is never fetched, so its
// page-level signals are never seen, and the Decision says so.
//
// # Mapping
//
// Each signal bears on the uses below and on no other. A use no signal
// speaks to is unknown. Where signals disagree about a use, deny wins over
// conditional, conditional over allow, allow over unknown ("if there are
// conflicting robots rules, the more restrictive rule applies", Google;
// "any no wins", draft-ietf-aipref-vocab-08, Combining Preferences).
//
//	signal          directive                       use(s)              answer       source
//	robots.txt      Allow/no matching rule          fetch               allow        RFC 9309 s. 2.2.2; Google's robots.txt spec
//	robots.txt      Disallow                        fetch               deny         RFC 9309 s. 2.2.2
//	x-robots-tag    noindex, none                   index               deny         Google robots meta tag spec ("noindex", "none")
//	  or meta       noindex + indexifembedded       index               conditional  Google ("indexifembedded": only embedded through iframes)
//	                unavailable_after: D (passed)   index               deny         Google ("unavailable_after")
//	                unavailable_after: D (to come)  index               conditional  Google (indexed until D)
//	                nosnippet, max-snippet:0        snippet, ai-input   deny         Google ("nosnippet": also not "a direct input for AI Overviews and AI Mode", added 5 Mar 2025; "max-snippet:0" = nosnippet)
//	                max-snippet:N (N > 0)           snippet, ai-input   conditional  Google ("max-snippet"; the same limit bounds AI Overviews input)
//	                max-snippet:-1                  snippet             allow        Google ("no limit")
//	                noarchive                       ai-input, ai-train  deny         Bing Webmaster Blog, September 2023 ("not be included in Bing Chat answers", not used for training)
//	                nocache (with or without        ai-input, ai-train  conditional  Bing, same post ("only URLs, Titles and Snippets"; "both NOCACHE and
//	                  noarchive)                                                     NOARCHIVE ... we will treat it as NOCACHE")
//	                noai                            ai-train            deny         DeviantArt team journal, Nov 2022 (training sets "must ... exclude" such content)
//	                noimageai                       ai-train            conditional  DeviantArt, same (the page's images excluded; its text not addressed)
//	                noml                            ai-train            deny         noml.info (Mojeek's "noml" open letter); img2dataset issue 365, 28 Nov 2023
//	                all, index, follow, nofollow, notranslate, noimageindex,
//	                max-image-preview, max-video-preview: none of the five uses (reported only)
//	tdmrep          tdm-reservation 1               ai-train            deny         TDMRep CG Final Report (10 May 2024): "TDM rights are reserved"
//	                tdm-reservation 1 + tdm-policy  ai-train            conditional  TDMRep: a licence may be acquired under the policy
//	                tdm-reservation 0               ai-train            allow        TDMRep: "TDM agents can mine the content"
//	content-usage   train-ai=n / =y                 ai-train            deny / allow draft-ietf-aipref-vocab-08 s. 4.1 (AI Training)
//	  (header or    ai-use=n / =y                   ai-input            deny / allow draft-ietf-aipref-vocab-08 s. 4.2 (AI Use)
//	  robots.txt)   search=n / =y                   index, snippet      deny / allow draft-ietf-aipref-vocab-08 s. 4.3 (Search: links and excerpts)
//	content-signal  search=no / =yes                index, snippet      deny / allow Content Signals Policy ("building a search index and providing search results ... hyperlinks and short excerpts")
//	  (header or    ai-input=no / =yes              ai-input            deny / allow Content Signals Policy ("inputting content into AI models")
//	  robots.txt)   ai-train=no / =yes              ai-train            deny / allow Content Signals Policy ("training or fine-tuning AI models")
//
// Choices the sources leave open, made here: TDMRep reserves text and data
// mining, which this package maps to ai-train only (a crawler that treats
// retrieval as mining should read ai-input as conditional on it); vocab-08
// says search overrides the other categories inside a search application,
// which changes no answer here, since ai-train and ai-input describe uses
// outside search; robots.txt Disallow does not deny index, since Google may
// index a blocked URL without its content.
package signals

// The names of the signals, as the "signal" of a Reason.
const (
	SignalRobotsTxt     = "robots.txt"
	SignalXRobotsTag    = "x-robots-tag"
	SignalMeta          = "meta"
	SignalTDMRep        = "tdmrep"
	SignalContentSignal = "content-signal"
	SignalContentUsage  = "content-usage"
)

// A Use is a use of a page.
type Use string

// The uses Decide answers.
const (
	UseFetch   Use = "fetch"
	UseIndex   Use = "index"
	UseSnippet Use = "snippet"
	UseAIInput Use = "ai-input"
	UseAITrain Use = "ai-train"
)

// AllUses are the uses, in the order reports list them.
var AllUses = []Use{UseFetch, UseIndex, UseSnippet, UseAIInput, UseAITrain}

// An Answer is what the signals say about one use.
type Answer string

// The answers, from the least to the most restrictive.
const (
	Unknown     Answer = "unknown"
	Allow       Answer = "allow"
	Conditional Answer = "conditional"
	Deny        Answer = "deny"
)

// rank orders answers by restriction.
func (a Answer) rank() int {
	switch a {
	case Allow:
		return 1
	case Conditional:
		return 2
	case Deny:
		return 3
	}
	return 0
}

// A Reason is one signal that decided an answer.
type Reason struct {
	Signal string `json:"signal"`
	// Detail is the line, header or tag: "line 3: Disallow: /private/",
	// "evalbot: noindex", `/.well-known/tdmrep.json: /articles/* tdm-reservation 1`.
	Detail string `json:"detail"`
}

// A Verdict is the answer for one use and the signals that gave it (empty,
// not nil, when the answer is unknown).
type Verdict struct {
	Answer Answer   `json:"answer"`
	By     []Reason `json:"by"`
}

// Uses are the verdicts for each use.
type Uses struct {
	Fetch   Verdict `json:"fetch"`
	Index   Verdict `json:"index"`
	Snippet Verdict `json:"snippet"`
	AIInput Verdict `json:"ai-input"`
	AITrain Verdict `json:"ai-train"`
}

// Get returns the verdict for u.
func (us *Uses) Get(u Use) *Verdict {
	switch u {
	case UseFetch:
		return &us.Fetch
	case UseIndex:
		return &us.Index
	case UseSnippet:
		return &us.Snippet
	case UseAIInput:
		return &us.AIInput
	case UseAITrain:
		return &us.AITrain
	}
	return nil
}
