package robots

// What Check knows of the keys Google ignores, and of unknown keys.

// An extension is a key that Google ignores and other crawlers read.
type extension struct {
	sev   Severity
	note  string             // who reads it, or why it has no effect
	group bool               // it applies to the group it stands in
	parse func(string) error // checks a value, if the key has a syntax
}

// valid returns a check of a value by parse.
func valid[T any](parse func(string) (T, error)) func(string) error {
	return func(v string) error { _, err := parse(v); return err }
}

// extensions are the keys of extension, lower-case.
var extensions = map[string]extension{
	keyCrawlDelay:    {SeverityInfo, "Bing and Yandex read it", true, valid(parseCrawlDelay)},
	keyRequestRate:   {SeverityInfo, "a few crawlers read it", true, valid(parseRequestRate)},
	keyVisitTime:     {SeverityInfo, "a few crawlers read it", true, valid(parseVisitTime)},
	keyHost:          {SeverityInfo, "Yandex used to read it", false, validHost},
	keyCleanParam:    {SeverityInfo, "Yandex reads it", false, valid(parseCleanParam)},
	"content-signal": {SeverityInfo, "it states preferences on the use of content (contentsignals.org)", true, nil},
	"content-usage":  {SeverityInfo, "it states preferences on the use of content (IETF AI preferences)", true, nil},
	"noindex":        {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nofollow":       {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"noarchive":      {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nosnippet":      {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
}

// other checks a line with a key Google does not read.
func (c *checker) other(n int, key, value string) {
	ext, ok := extensions[lowerASCII(key)]
	if !ok {
		if c.html || c.binary {
			return
		}
		sev, msg := SeverityWarning, "unknown key "+quote(key)
		if bare := strayPrefix(key); bare != "" { // "ï»¿User-agent": a BOM encoded twice
			c.add(n, SeverityError, CodeUnknownKey, "key "+quote(key)+" has stray bytes before "+quote(bare)+
				" (a byte order mark?): the line is ignored")
			return
		}
		if guess := suggestKey(key); guess != "" {
			msg += " (did you mean " + quote(guess) + "?)"
			if guess == "user-agent" || guess == "allow" || guess == "disallow" {
				sev = SeverityError
			}
		}
		c.add(n, sev, CodeUnknownKey, msg+": the line is ignored")
		return
	}
	c.add(n, ext.sev, CodeIgnoredByGoogle, quote(key)+" is ignored by Google ("+ext.note+")")
	if ext.group && len(c.p.starts) == 0 {
		c.add(n, SeverityWarning, CodeKeyOutsideGroup, quote(key)+" line before any user-agent line: it belongs to no group")
	}
	if ext.parse != nil {
		if err := ext.parse(value); err != nil {
			c.add(n, SeverityWarning, CodeInvalidValue, quote(key)+" value "+quote(value)+" is "+err.Error()+": the line is ignored")
		}
	}
}

// strayPrefix returns the directive of Google's that key is after non-ASCII
// bytes, or "".
func strayPrefix(key string) string {
	i := 0
	for i < len(key) && key[i] >= 0x80 {
		i++
	}
	if i == 0 || i == len(key) || keyKind(key[i:]) == kindOther {
		return ""
	}
	return key[i:]
}

// suggestableKeys are the keys unknown keys are compared with.
var suggestableKeys = []string{
	"user-agent", "allow", "disallow", "sitemap",
	keyCrawlDelay, keyRequestRate, keyVisitTime, keyHost, keyCleanParam,
}

// suggestKey returns the known key that key probably misspells, or "".
func suggestKey(key string) string {
	const maxEdits = 2
	k := lowerASCII(key)
	if len(k) < 4 || len(k) > 20 {
		return ""
	}
	best, bestEdits := "", maxEdits+1
	for _, known := range suggestableKeys {
		if e := editDistance(k, known); e < bestEdits {
			best, bestEdits = known, e
		}
	}
	return best
}

// editDistance returns the optimal string alignment distance of a and b:
// the insertions, deletions, substitutions and transpositions of adjacent
// bytes that turn one into the other. Row i holds those of a[:i] and b[:j].
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
