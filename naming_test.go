package robots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSortNames checks the runs and order sortNames returns, on lists of
// tokens alike but for case, sharing their first 8 bytes, and named twice
// in one record: one run for each token, its records counted once, its
// first naming the first written of its first record, and the runs of most records first.
func TestSortNames(t *testing.T) {
	tokens := []string{"Googlebot", "googlebot-image", "GOOGLEBOT-News", "bingbot", "a", "AdsBot-Google",
		"googlebot", "Bingbot", "x", "adsbot-google-mobile", "zz", "Googlebot-Image"}
	for _, n := range []int{0, 1, 5, 13, 40} {
		t.Run(fmt.Sprint("names=", n), func(t *testing.T) {
			var text strings.Builder
			var names []naming
			recs := map[string]map[int32]bool{} // by lower-case token
			first := map[string]string{}        // of the first record, the first written
			firstRec := map[string]int32{}
			for i := range n {
				token := tokens[(i*7)%len(tokens)]
				rec := int32((i * 5) % 7)
				names = append(names, naming{uint32(text.Len()), uint32(len(token)), rec})
				text.WriteString(token)
				low := strings.ToLower(token)
				if recs[low] == nil {
					recs[low] = map[int32]bool{}
				}
				if _, ok := firstRec[low]; !ok || rec < firstRec[low] {
					firstRec[low], first[low] = rec, token
				}
				recs[low][rec] = true
			}
			s := text.String()
			runs, order := sortNames(s, names, &resolveScratch{})
			got, want := map[string]int{}, map[string]int{}
			for low, rs := range recs {
				want[low] = len(rs)
			}
			for k, rn := range runs {
				nm := names[rn.lo]
				token := s[nm.off : nm.off+nm.size]
				if token != first[strings.ToLower(token)] {
					t.Errorf("run %d starts with %q, want that of its first record first written, %q", k, token, first[strings.ToLower(token)])
				}
				got[strings.ToLower(token)] = int(rn.recs)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("records of each token (-want +got):\n%s", diff)
			}
			for k := 1; k < len(order); k++ {
				if a, b := runs[order[k-1]], runs[order[k]]; a.recs < b.recs || a.recs == b.recs && order[k-1] > order[k] {
					t.Errorf("order %v: runs not by records, most first, stably", order)
				}
			}
		})
	}
}
