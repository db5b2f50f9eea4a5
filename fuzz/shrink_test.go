package fuzz

import (
	"bytes"
	"strings"
	"testing"
)

func TestMinimize(t *testing.T) {
	body := []byte("# a\r\nUser-agent: *\r\nAllow: /\nDisallow: /x\r# b\nSitemap: /s\n")
	q := Query{Agents: []string{"FooBot", "Googlebot"}, URL: "https://example.com/x/y?z#f"}
	fails := func(b []byte, q Query) bool {
		return bytes.Contains(b, []byte("Disallow: /x")) && strings.Contains(q.URL, "x") &&
			len(q.Agents) > 0 && q.Agents[0] == "FooBot"
	}
	gotBody, gotQ := Minimize(body, q, fails)
	if want := "Disallow: /x"; string(gotBody) != want {
		t.Errorf("Minimize body = %q, want %q", gotBody, want)
	}
	if gotQ.URL != "x" || len(gotQ.Agents) != 1 {
		t.Errorf("Minimize query = %+v, want URL %q and one agent", gotQ, "x")
	}
}

func TestMinimizeKeepsLineBreaks(t *testing.T) {
	body := []byte("User-agent: *\r\nAllow: /\r\rDisallow: /x\r# b\n")
	fails := func(b []byte, q Query) bool { return bytes.Contains(b, []byte("\r\rD")) }
	got, _ := Minimize(body, Query{Agents: []string{"a"}, URL: "/"}, fails)
	if want := "\r\rD"; string(got) != want {
		t.Errorf("Minimize = %q, want %q", got, want)
	}
}

func TestMinimizeKeepsSizeWhenItMatters(t *testing.T) {
	body := []byte(strings.Repeat("Allow: /a\n", 100) + "Disallow: /x\n")
	fails := func(b []byte, q Query) bool {
		return len(b) == len(body) && bytes.HasSuffix(b, []byte("Disallow: /x\n"))
	}
	got, _ := Minimize(body, Query{Agents: []string{"a"}, URL: "/"}, fails)
	want := strings.Repeat("         \n", 100) + "Disallow: /x\n"
	if string(got) != want {
		t.Errorf("Minimize = %s, want %s", goString(got), goString([]byte(want)))
	}
}

func TestSplitKeepingBreaks(t *testing.T) {
	got := splitKeepingBreaks([]byte("a\r\nb\rc\n\rd"))
	want := []string{"a\r\n", "b\r", "c\n", "\r", "d"}
	if len(got) != len(want) {
		t.Fatalf("splitKeepingBreaks = %q, want %q", got, want)
	}
	for i := range got {
		if string(got[i]) != want[i] {
			t.Fatalf("splitKeepingBreaks = %q, want %q", got, want)
		}
	}
}
