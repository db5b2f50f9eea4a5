package robots

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSortNamings compares sortNamings, which sorts by insertion and
// merging, with a stable sort of the slices package, on lists of tokens
// shorter and longer than its insertion runs, with tokens alike but for
// case, sharing their first 8 bytes, and named twice in one record.
func TestSortNamings(t *testing.T) {
	tokens := []string{"Googlebot", "googlebot-image", "GOOGLEBOT-News", "bingbot", "a", "AdsBot-Google",
		"googlebot", "Bingbot", "x", "adsbot-google-mobile", "zz", "Googlebot-Image"}
	for _, n := range []int{0, 1, 5, 11, 12, 13, 24, 25, 40, 100} {
		t.Run(fmt.Sprint("names=", n), func(t *testing.T) {
			var text strings.Builder
			var names []naming
			for i := range n {
				token := tokens[(i*7)%len(tokens)]
				names = append(names, newNaming(token, uint32(text.Len()), int32((i*5)%7)))
				text.WriteString(token)
			}
			s := text.String()
			want := slices.Clone(names)
			slices.SortStableFunc(want, func(a, b naming) int { return compareNamings(s, &a, &b) })
			got := slices.Clone(names)
			sortNamings(s, got, nil)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(naming{})); diff != "" {
				t.Errorf("sortNamings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSortByRecords compares sortByRecords with a stable sort of the
// slices package, below and above its insertion length.
func TestSortByRecords(t *testing.T) {
	for _, n := range []int{0, 1, 5, 11, 12, 30} {
		t.Run(fmt.Sprint("runs=", n), func(t *testing.T) {
			runs := make([]nameRun, n)
			order := make([]int32, n)
			for i := range runs {
				runs[i].recs = int32((i*7)%4 + 1)
				order[i] = int32(i)
			}
			want := slices.Clone(order)
			slices.SortStableFunc(want, func(a, b int32) int { return int(runs[b].recs - runs[a].recs) })
			sortByRecords(order, runs, nil)
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("sortByRecords (-want +got):\n%s", diff)
			}
		})
	}
}

// compareNames compares the tokens of two namings, ignoring ASCII case:
// by their prefixes, which tell most apart, else by compareSamePrefix.
// Tokens hold no NUL, so that a shorter token's prefix, padded with zeros,
// sorts before that of a longer one it starts.
func compareNames(text string, a, b *naming) int {
	switch {
	case a.prefix < b.prefix:
		return -1
	case a.prefix > b.prefix:
		return 1
	}
	return compareSamePrefix(text, a, b)
}

// compareNamings compares two namings by token, ignoring ASCII case, then
// by record: the order of sortNamings, written plainly; the sort itself
// compares with lessNaming, which TestSortNamings checks against it.
func compareNamings(text string, a, b *naming) int {
	if c := compareNames(text, a, b); c != 0 {
		return c
	}
	switch {
	case a.rec() < b.rec():
		return -1
	case a.rec() > b.rec():
		return 1
	}
	return 0
}
