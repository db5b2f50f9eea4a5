package semdiff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

func TestWitnesses(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string
	}{
		{"empty", "", []string{"/", "/x"}},
		{"prefix", "user-agent: *\ndisallow: /a\n",
			[]string{"/", "/a", "/ax", "/x"}},
		{"dollar", "user-agent: *\ndisallow: /a$\n",
			[]string{"/", "/a", "/a/", "/a/x", "/ax", "/x"}},
		{"star-dollar", "user-agent: *\ndisallow: /a*b$\n",
			[]string{"/", "/a", "/ab", "/ab/", "/ab/x", "/abx", "/ax", "/axb", "/axbx", "/x"}},
		{"trailing-star", "user-agent: *\ndisallow: /a**$\n",
			[]string{"/", "/a", "/ax", "/x"}},
		{"leading-star", "user-agent: *\ndisallow: *.pdf$\n",
			[]string{"/", "/.pdf", "/.pdf/", "/.pdf/x", "/.pdfx", "/x", "/x.pdf", "/x.pdfx"}},
		{"escapes", "user-agent: *\ndisallow: /%7e/é\n",
			[]string{"/", "/%7E/%C3%A9", "/%7E/%C3%A9x", "/x"}},
		{"fresh-byte", "user-agent: *\ndisallow: /xz\n",
			[]string{"/", "/q", "/xz", "/xzq"}},
		{"index-html", "user-agent: *\nallow: /d/index.html\n",
			[]string{"/", "/d/", "/d//", "/d//z", "/d/index.html", "/d/index.htmlz", "/d/z", "/z"}},
		{"never-matches", "user-agent: *\ndisallow: fish\ndisallow:\n", []string{"/", "/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Witnesses(robots.Parse([]byte(tt.file)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Witnesses(%q) mismatch (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}
