package signals_test

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/signals"
)

// A training crawler asks, for a page it was allowed to fetch, what the
// site says about training on it.
func ExampleDecide() {
	file, _ := signals.ParseTDMRep([]byte(`[{"location": "/articles/*", "tdm-reservation": 1}]`))
	head, _ := signals.ReadHead(strings.NewReader(`<html><head><meta name="robots" content="max-snippet:50"></head>`), 0)
	d := signals.Decide("https://example.com/articles/1", "EvalBot", signals.Seen{
		Robots: robots.Parse([]byte("User-agent: *\nDisallow: /private/\n")),
		TDMRep: file,
		Header: http.Header{"X-Robots-Tag": {"evalbot: noindex"}},
		Head:   head,
	})
	for _, u := range signals.AllUses {
		v := d.Uses.Get(u)
		fmt.Print(u, " ", v.Answer)
		for _, r := range v.By {
			fmt.Printf(" [%s: %s]", r.Signal, r.Detail)
		}
		fmt.Println()
	}
	// Output:
	// fetch allow [robots.txt: no matching rule]
	// index deny [x-robots-tag: evalbot: noindex]
	// snippet conditional [meta: max-snippet:50]
	// ai-input conditional [meta: max-snippet:50]
	// ai-train deny [tdmrep: /.well-known/tdmrep.json: /articles/* tdm-reservation 1]
}
