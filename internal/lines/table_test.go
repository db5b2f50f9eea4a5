package lines

import "testing"

// TestLineTableSize checks what the table spends on the commonest lines,
// those that follow the previous one: a byte for a value of up to 30
// bytes, else a byte and two varints; an extra has one more for its key.
func TestLineTableSize(t *testing.T) {
	tests := []struct {
		name         string
		kind         Kind
		size, keyLen int
		want         int
	}{
		{"disallow", KindDisallow, 30, 0, 1},
		{"allow", KindAllow, 0, 0, 1},
		{"user-agent", KindUserAgent, 12, 0, 1},
		{"sitemap", KindSitemap, 29, 0, 1},
		{"extra", KindOther, 3, 11, 2},
		{"disallow-long", KindDisallow, 31, 0, 3},
		{"sitemap-long", KindSitemap, 127, 0, 3},
		{"sitemap-longer", KindSitemap, 128, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Writer
			off := 0
			for i := range 64 {
				off += tt.keyLen
				w.Add(tt.kind, NewLine(off, tt.size, i+1, tt.kind == KindAllow), tt.keyLen)
				off += tt.size
			}
			if got := len(w.Buf) / 64; got != tt.want {
				t.Errorf("%d bytes of table for 64 lines: %d a line, want %d", len(w.Buf), got, tt.want)
			}
		})
	}
}
