package main

import (
	"testing"

	"github.com/temoto/robotstxt"
)

// TestTieIsWhereLibrariesDiffer checks that the /tie case of the demo site
// tells Google's semantics from temoto/robotstxt's (Colly's own robots.txt
// support): TestCrawl sees /tie fetched, which temoto would refuse.
func TestTieIsWhereLibrariesDiffer(t *testing.T) {
	r, err := robotstxt.FromString(demoRobotsTxt)
	if err != nil {
		t.Fatal(err)
	}
	if r.TestAgent("/tie", "ExampleBot") {
		t.Errorf("temoto/robotstxt allows /tie: the demo site does not show the difference")
	}
}
