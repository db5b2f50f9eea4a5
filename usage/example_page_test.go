package usage_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// tdmSite serves a robots.txt that keeps crawlers out of /private/, a
// tdmrep.json that reserves /articles/ for text and data mining, and pages,
// one of which says noai in its head.
func tdmSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/.well-known/tdmrep.json":
			fmt.Fprint(w, `[{"location":"/articles/","tdm-reservation":1}]`)
		case "/blog/noai":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><meta name="robots" content="noai"></head><body>...</body></html>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>a page</title></head><body>...</body></html>`)
		}
	}))
}

// The one call per URL: every use answered before the page is fetched,
// from the site's robots.txt and tdmrep.json (each fetched once, kept by
// the Cache), then completed from the response.
func ExampleAsk() {
	site := tdmSite()
	defer site.Close()
	cache := fetch.NewCache(nil, "ExampleBot/1.0 (+https://example.com/bot)", fetch.Options{})
	ctx := context.Background()

	for _, path := range []string{"/articles/1", "/private/x", "/blog/noai"} {
		p, err := usage.Ask(ctx, cache, "ExampleBot", site.URL+path)
		if err != nil {
			fmt.Println(err)
			continue
		}
		before := p.Decision.Uses
		fmt.Printf("%s before: fetch %s, ai-train %s\n", path, before.Fetch.Answer, before.AITrain.Answer)
		if before.Fetch.Answer != signals.Allow {
			continue
		}
		resp, err := http.Get(site.URL + path)
		if err != nil {
			fmt.Println(err)
			continue
		}
		head, _ := signals.ReadHead(resp.Body, signals.DefaultHeadLimit)
		resp.Body.Close()
		after := p.Complete(resp.Header, head).Uses
		fmt.Printf("%s after:  ai-train %s by %s\n", path, after.AITrain.Answer, after.AITrain.By[0].Signal)
	}
	// Output:
	// /articles/1 before: fetch allow, ai-train deny
	// /articles/1 after:  ai-train deny by tdmrep
	// /private/x before: fetch deny, ai-train unknown
	// /blog/noai before: fetch allow, ai-train unknown
	// /blog/noai after:  ai-train deny by meta
}

// A crawler that collects training data: its transport obeys robots.txt,
// skips what the site reserves before requesting it, and refuses a body
// whose head says noai.
func ExampleTransport() {
	site := tdmSite()
	defer site.Close()
	t, err := fetch.NewTransport(nil, "TrainBot/1.0 (+https://example.com/bot)", fetch.TransportOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ut, err := usage.NewTransport(t, usage.Options{Purposes: []signals.Use{signals.UseAITrain}, RefuseBody: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &http.Client{Transport: ut}
	for _, path := range []string{"/blog/1", "/articles/1", "/private/x", "/blog/noai"} {
		resp, err := client.Get(site.URL + path)
		var denied *usage.DeniedError
		switch {
		case errors.Is(err, fetch.ErrDisallowed):
			fmt.Println(path, "disallowed by robots.txt")
		case errors.As(err, &denied):
			fmt.Println(path, "denied:", denied.Decision.Uses.AITrain.By[0].Signal, "before fetch:", denied.BeforeFetch)
		case err != nil:
			fmt.Println(path, err)
		default:
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			fmt.Println(path, "kept:", strings.Contains(string(body), "a page"))
		}
	}
	_, err = usage.NewTransport(t, usage.Options{Purposes: []signals.Use{"ai_train"}})
	fmt.Println(err)
	// Output:
	// /blog/1 kept: true
	// /articles/1 denied: tdmrep before fetch: true
	// /private/x disallowed by robots.txt
	// /blog/noai denied: meta before fetch: false
	// signals: unknown purpose "ai_train": the uses are [fetch index snippet ai-input ai-train]
}
