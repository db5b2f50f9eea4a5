package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCrawlForTraining(t *testing.T) {
	s := newTrainSite()
	defer s.Close()
	rep, err := crawlForTraining(s.URL+"/", localOnly())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/", "/blog/ok"}, rep.Kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	wantSkipped := []string{
		"/articles/1: not fetched, tdmrep /.well-known/tdmrep.json: /articles/ tdm-reservation 1",
		"/blog/noai: body refused, meta noai",
		"/blog/noml: body refused, x-robots-tag noml",
	}
	if diff := cmp.Diff(wantSkipped, rep.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	// The reserved page is never requested; tdmrep.json once.
	got := s.requested()
	if got["/articles/1"] != 0 || got["/.well-known/tdmrep.json"] != 1 {
		t.Errorf("requests %v: want no /articles/1 and one tdmrep.json", got)
	}
	var out bytes.Buffer
	rep.print(&out)
	if !strings.Contains(out.String(), "training: kept 2: [/ /blog/ok]") {
		t.Errorf("report %q", out.String())
	}
}
