package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	uses "github.com/gorep/robots/usage" // the command's usage text is usage
)

// tdmrepAudit is the site's tdmrep.json as "robotstxt audit" reports it
// beside the robots.txt of a URL.
type tdmrepAudit struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
	// Rules are the rules read, in array order (the first match decides).
	Rules []tdmrepRule `json:"rules"`
	// Problems are the file's errors and the rules skipped.
	Problems []string `json:"problems,omitempty"`
}

type tdmrepRule struct {
	Location    string `json:"location"`
	Reservation int    `json:"tdm-reservation"` // -1 when unset
	Policy      string `json:"tdm-policy,omitempty"`
}

// auditTDMRep fetches the tdmrep.json of the site of a fetched source; nil
// for a file or standard input.
func auditTDMRep(src *source) *tdmrepAudit {
	if src.fetched == nil {
		return nil
	}
	res, err := uses.GetTDMRep(context.Background(), nil, userAgent, src.fetched.URL)
	if res == nil {
		return nil
	}
	a := &tdmrepAudit{URL: res.URL, Status: res.StatusCode, Rules: []tdmrepRule{}}
	if err != nil {
		a.Problems = append(a.Problems, err.Error())
	}
	if res.Problem != nil {
		a.Problems = append(a.Problems, res.Problem.Error())
	}
	if res.File != nil {
		for _, r := range res.File.Rules {
			a.Rules = append(a.Rules, tdmrepRule{r.Location, r.Reservation, r.Policy})
		}
		a.Problems = append(a.Problems, res.File.Problems...)
	}
	return a
}

// printTDMRep writes a's header line: "# tdmrep.json: 200, 2 rules: /a/*
// reserved, / not reserved".
func printTDMRep(w io.Writer, a *tdmrepAudit) {
	if a == nil {
		return
	}
	switch {
	case a.Status == 0:
		fmt.Fprintf(w, "# tdmrep.json: not fetched")
	case a.Status < 200 || a.Status > 299:
		fmt.Fprintf(w, "# tdmrep.json: %d: none (TDMRep reservations come only from page headers and meta)", a.Status)
	default:
		var rules []string
		for _, r := range a.Rules {
			s := r.Location + " " + map[int]string{1: "reserved", 0: "not reserved", -1: "unset"}[r.Reservation]
			if r.Reservation == 1 && r.Policy != "" {
				s += " (policy " + r.Policy + ")"
			}
			rules = append(rules, s)
		}
		fmt.Fprintf(w, "# tdmrep.json: %d, %s", a.Status, plural(len(a.Rules), "rule"))
		if len(rules) > 0 {
			fmt.Fprintf(w, ", first match decides: %s", strings.Join(rules, "; "))
		}
	}
	for _, p := range a.Problems {
		fmt.Fprintf(w, "; %s", p)
	}
	fmt.Fprintln(w)
}
