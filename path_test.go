package robots

import "testing"

// TestGooglePathTable checks each row of the table "Example path matches".
func TestGooglePathTable(t *testing.T) {
	fishMatches := []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"}
	fishNot := []string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}
	table := []struct {
		pattern      string
		matches, not []string
	}{
		{"/", []string{"/", "/a", "/a/b?c"}, nil},
		{"/*", []string{"/", "/a", "/a/b?c"}, nil},
		{"/$", []string{"/"}, []string{"/a", "/?q"}},
		{"/fish", fishMatches, fishNot},
		{"/fish*", fishMatches, fishNot},
		{"/fish/", []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"}, []string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php", []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"}, []string{"/", "/windows.PHP"}},
		{"/*.php$", []string{"/filename.php", "/folder/filename.php"}, []string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php", []string{"/fish.php", "/fishheads/catfish.php?parameters"}, []string{"/Fish.PHP"}},
	}
	var qs []query
	for _, row := range table {
		body := "user-agent: *\ndisallow: " + row.pattern + "\n"
		for _, p := range row.matches {
			qs = append(qs, query{name: "google/path/" + row.pattern + "/matches" + p, body: body, agent: "a", url: "https://example.com" + p, want: false, line: 2})
		}
		for _, p := range row.not {
			qs = append(qs, query{name: "google/path/" + row.pattern + "/not" + p, body: body, agent: "a", url: "https://example.com" + p, want: true})
		}
	}
	runQueries(t, qs)
}

// pathOf returns the part of url that rules are matched against, as one
// string.
func pathOf(url string) string {
	path, slash := splitPath(url)
	if slash {
		return "/" + path
	}
	return path
}

func TestPathOf(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://x.com?q", "/?q"},
		{"http://x.com;p", "/;p"},
		{"http://x.com#f/a", "/"},
		{"http://x.com/#f", "/"},
		{"http://user:pass@x.com:8080/a", "/a"},
		{"a?b://c/d", "/?b://c/d"},
		{"mailto:a@b.c", "/"},
		{"http://x.com/a%2Fb", "/a%2Fb"},
		{"a#b://c/d", "/"},
		{"://x/y", "/y"},
		{"//a#b/c", "/"},
		{"//://x/y", "/y"},
		{"http:/x/y", "/x/y"},
		{"http://", "/"},
		{"http:///a", "/a"},
		{"a:/", "/"},
	}
	for _, tt := range tests {
		if got := pathOf(tt.url); got != tt.want {
			t.Errorf("pathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
		if got := slowPathOf(tt.url); got != tt.want {
			t.Errorf("slowPathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestURLCutAtNUL checks that the path of a URL is read up to its first
// NUL byte, as Google's reference reads it: it finds the path in the whole
// URL, then reads it as a C string. "/a\x00b" is "/a", which
// "Disallow: /a$" matches (issue 26, item 23); a NUL before the path is
// passed over, as any byte of the authority (issue 30).
func TestURLCutAtNUL(t *testing.T) {
	body := "User-agent: *\nDisallow: /a$\n"
	runQueries(t, []query{
		{name: "google/nul-in-url", body: body, agent: "FooBot", url: "http://example.com/a\x00b", want: false, line: 2},
		{name: "google/nul-in-path", body: body, agent: "FooBot", url: "/a\x00b", want: false, line: 2},
		{name: "google/nul-in-host", body: body, agent: "FooBot", url: "http://example.com\x00/a", want: false, line: 2},
		{name: "google/nul-mid-host", body: body, agent: "FooBot", url: "http://ex\x00ample.com/a", want: false, line: 2},
		{name: "google/nul-first", body: body, agent: "FooBot", url: "\x00/a", want: false, line: 2},
		{name: "google/nul-after-query", body: body, agent: "FooBot", url: "/a?\x00", want: true},
		{name: "google/nul-before-fragment", body: body, agent: "FooBot", url: "/a\x00#b", want: false, line: 2},
	})
	for _, tc := range []struct{ url, want string }{
		{"http://example.com/a\x00b", "/a"},
		{"\x00/a", "/a"},
		{"\x00\x00", "/"},
		{"//ex\x00ample.com/a\x00/b", "/a"},
		{"http://ex\x00#ample.com/a", "/"},
		{"http://example.com?q\x00r", "/?q"},
	} {
		if got := pathOf(tc.url); got != tc.want {
			t.Errorf("pathOf(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
