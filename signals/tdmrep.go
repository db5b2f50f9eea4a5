package signals

// TDMRep, the TDM Reservation Protocol (W3C Community Group Final Report,
// 10 May 2024, w3.org/community/reports/tdmrep/CG-FINAL-tdmrep-20240510):
//
//   - /.well-known/tdmrep.json is an array of rules {location,
//     tdm-reservation, tdm-policy}; location and tdm-reservation are
//     mandatory. "The most specific match is the first in sequence": the
//     first rule in array order whose location matches the path decides,
//     not the longest. Locations are matched as robots.txt paths are
//     ("*" and "$", as Google interprets them), by the robots package's
//     own matcher.
//   - tdm-reservation is 1 (reserved) or 0 (not reserved); "other values
//     are considered protocol errors ... tdm-reservation is unset".
//     tdm-policy is a URL, not processed when tdm-reservation is 0.
//   - The tdm-reservation and tdm-policy response headers "supercede any
//     value inferred from" the file, and the HTML meta tags of those
//     names supercede the headers; "the absence of tdm-reservation and
//     tdm-policy MUST not reset current values" (Processing priority).
//
// EPUB and PDF metadata are not read.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gorep/robots"
)

// MaxTDMRepSize is the largest tdmrep.json Parse reads. The protocol sets
// no limit; real files are under a kilobyte, and robots.txt's 500 KiB
// limit is a sensible bound for a site-wide file of the same kind.
const MaxTDMRepSize = 500 << 10

// maxTDMRules bounds the entries read, and so the rules kept;
// maxTDMProblems the problems listed (the others are counted).
const (
	maxTDMRules    = 10000
	maxTDMProblems = 100
)

// A TDMRule is one rule of tdmrep.json.
type TDMRule struct {
	Location string `json:"location"`
	// Reservation is 1, 0, or -1 when unset (missing or not 0 or 1).
	Reservation int    `json:"tdm-reservation"`
	Policy      string `json:"tdm-policy,omitempty"`
	// Index is the rule's 0-based place in the array.
	Index int `json:"index"`
}

// TDMRep is a parsed tdmrep.json. A nil *TDMRep matches nothing.
type TDMRep struct {
	Rules []TDMRule
	// Problems are the rules skipped or read as unset, and why.
	Problems []string
	groups   []*robots.Group // of each rule: its location alone, compiled once
}

// ErrTDMRepTooLarge and ErrTDMRepNotJSON report a tdmrep.json that is not
// read at all.
var (
	ErrTDMRepTooLarge = errors.New("tdmrep: tdmrep.json is larger than 500 KiB: not read")
	ErrTDMRepNotJSON  = errors.New("tdmrep: tdmrep.json is not a JSON array")
)

// ParseTDMRep parses a tdmrep.json file. It fails only when data is too
// large or is not a JSON array; bad rules are skipped and reported in
// Problems, and the good ones kept.
func ParseTDMRep(data []byte) (*TDMRep, error) {
	if len(data) > MaxTDMRepSize {
		return nil, ErrTDMRepTooLarge
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v) // says where
		return nil, fmt.Errorf("%w: %v", ErrTDMRepNotJSON, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, _ := dec.Token(); tok != json.Delim('[') {
		return nil, fmt.Errorf("%w: it starts with %v", ErrTDMRepNotJSON, tok)
	}
	t := &TDMRep{}
	var b strings.Builder
	skipped := 0 // problems over maxTDMProblems
	for i := 0; dec.More(); i++ {
		if i == maxTDMRules {
			t.Problems = append(t.Problems, "more than "+strconv.Itoa(maxTDMRules)+" entries: the others are not read")
			break
		}
		var m json.RawMessage
		dec.Decode(&m) // valid JSON: no error
		rule, problem := parseTDMRule(i, m)
		if problem != "" {
			if len(t.Problems) < maxTDMProblems {
				t.Problems = append(t.Problems, "rule "+strconv.Itoa(i+1)+": "+problem)
			} else {
				skipped++
			}
		}
		if rule.Location == "" {
			continue
		}
		t.Rules = append(t.Rules, rule)
		b.WriteString("user-agent: " + tdmAgent(len(t.Rules)-1) + "\ndisallow: " + rule.Location + "\n")
	}
	if skipped > 0 {
		t.Problems = append(t.Problems, strconv.Itoa(skipped)+" more rules with problems not listed")
	}
	paths := robots.Parse([]byte(b.String()))
	t.groups = make([]*robots.Group, len(t.Rules))
	for i := range t.Rules {
		t.groups[i] = paths.Group(tdmAgent(i))
	}
	return t, nil
}

// parseTDMRule reads rule i. A rule without a usable location has Location
// "".
func parseTDMRule(i int, m json.RawMessage) (TDMRule, string) {
	var f map[string]json.RawMessage
	rule := TDMRule{Reservation: -1, Index: i}
	if err := json.Unmarshal(m, &f); err != nil {
		return TDMRule{}, "not an object: skipped"
	}
	var loc string
	if err := json.Unmarshal(f["location"], &loc); err != nil || loc == "" {
		return TDMRule{}, "no location string: skipped"
	}
	if strings.ContainsAny(loc, "\x00\r\n#") || !(strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "*")) {
		return TDMRule{}, "location " + strconv.Quote(loc) + " is not a path pattern: skipped"
	}
	rule.Location = loc
	var problem string
	switch r := string(bytes.TrimSpace(f["tdm-reservation"])); r {
	case "0", "1":
		rule.Reservation = int(r[0] - '0')
	case "":
		problem = "no tdm-reservation: read as unset"
	default:
		problem = "tdm-reservation " + truncate(r, 40) + " is not 0 or 1: read as unset"
	}
	if p, ok := f["tdm-policy"]; ok {
		if err := json.Unmarshal(p, &rule.Policy); err != nil {
			problem = strings.TrimPrefix(problem+"; tdm-policy is not a string: ignored", "; ")
		}
	}
	return rule, problem
}

// Match returns the first rule, in array order, whose location matches
// url (a path, or an absolute URL whose path is used), and whether there
// is one.
func (t *TDMRep) Match(url string) (TDMRule, bool) {
	if t == nil {
		return TDMRule{}, false
	}
	// "If TDM Agents match special characters verbatim in the URI, they
	// MUST use % encoding": a "$" or "*" of the URL is matched by "%24" or
	// "%2A" in a location, never by the special character.
	if strings.ContainsAny(url, "$*") {
		url = strings.NewReplacer("$", "%24", "*", "%2A").Replace(url)
	}
	for i, g := range t.groups {
		if d := g.Decide(url); d.Reason == robots.ReasonRule {
			return t.Rules[i], true
		}
	}
	return TDMRule{}, false
}

// tdmAgent returns a product token, letters only, that names rule i's
// group.
func tdmAgent(i int) string {
	b := []byte("tdmrep")
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// TDM is the TDMRep answer for one resource after the layers.
type TDM struct {
	// Reservation is 1, 0 or -1 (unset).
	Reservation int
	Policy      string
	// Signal and Detail say which layer decided: "/.well-known/tdmrep.json:
	// /articles/* tdm-reservation 1", "header tdm-reservation: 1",
	// `<meta name="tdm-reservation" content="1">`.
	Detail string
	// Problems are values read as unset.
	Problems []string
}

// LayerTDM applies TDMRep's processing priority: the matching rule of the
// file (file may be nil), then the tdm-reservation and tdm-policy header
// values (each "" when absent), then the meta tags of those names (each
// "" when absent). A later layer's reservation supersedes; an absent one
// changes nothing.
func LayerTDM(file *TDMRep, url, header, headerPolicy, meta, metaPolicy string) TDM {
	res := TDM{Reservation: -1}
	if rule, ok := file.Match(url); ok {
		res.Reservation, res.Policy = rule.Reservation, rule.Policy
		res.Detail = "/.well-known/tdmrep.json: " + rule.Location + " tdm-reservation " + strconv.Itoa(rule.Reservation)
		if rule.Reservation < 0 {
			res.Detail = "/.well-known/tdmrep.json: " + rule.Location + " (tdm-reservation unset)"
		}
	}
	layer := func(value, policy, detail string) {
		value = strings.TrimSpace(value)
		switch value {
		case "":
		case "0", "1":
			res.Reservation, res.Detail = int(value[0]-'0'), fmt.Sprintf(detail, value)
		default:
			res.Problems = append(res.Problems, fmt.Sprintf(detail, truncate(value, 40))+": not 0 or 1, read as unset")
		}
		switch p := strings.TrimSpace(policy); {
		case len(p) > maxPolicyLen:
			res.Problems = append(res.Problems, fmt.Sprintf(detail, "...")+": tdm-policy longer than "+
				strconv.Itoa(maxPolicyLen)+" bytes, ignored")
		case p != "":
			res.Policy = p
		}
	}
	layer(header, headerPolicy, "header tdm-reservation: %s")
	layer(meta, metaPolicy, `<meta name="tdm-reservation" content="%s">`)
	if res.Reservation != 1 {
		res.Policy = ""
	}
	return res
}

// truncate cuts s to n bytes, with "..." when cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
