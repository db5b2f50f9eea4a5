package sfv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDictionary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // key=kind:value
	}{
		{"token", "train-ai=n", []string{"train-ai=t:n"}},
		{"bare-key", "a, b=?0", []string{"a=b:?1", "b=b:?0"}},
		{"string", `a="x\"y"`, []string{`a=s:x"y`}},
		{"number", "a=-1.5", []string{"a=n:-1.5"}},
		{"bytes", "a=:aGk=:", []string{"a=::aGk="}},
		{"params", "a=y;p=1;q, b=n", []string{"a=t:y", "b=t:n"}},
		{"star-key", "*x=y", []string{"*x=t:y"}},
		{"spaces", "a=y ,\tb=n", []string{"a=t:y", "b=t:n"}},
		{"fail/trailing-comma", "a=y,", nil},
		{"fail/upper-key", "A=y", nil},
		{"fail/inner-list", "a=(y n)", nil},
		{"fail/no-comma", "a=y b=n", nil},
		{"fail/open-string", `a="x`, nil},
		{"fail/empty", "", nil},
		{"fail/lone-minus", "a=-", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members, err := ParseDictionary(tt.in)
			var got []string
			for _, m := range members {
				got = append(got, m.Key+"="+string(m.Kind)+":"+m.Value)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseDictionary(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if (err != nil) != (tt.want == nil) {
				t.Errorf("ParseDictionary(%q) error = %v", tt.in, err)
			}
		})
	}
}

func TestLastValuesAndYesNo(t *testing.T) {
	ms, err := ParseDictionary(`train-ai=y, train-ai, search=n, search="n", ai-use=n;p=1`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range LastValues(ms) {
		yn := "?"
		if c := m.YesNo(); c != 0 {
			yn = string(c)
		}
		got = append(got, m.Key+"="+yn)
	}
	// vocab-07/-08 "Multiple Preferences": the last value counts, and a
	// boolean or a string is not a preference.
	want := []string{"train-ai=?", "search=?", "ai-use=n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LastValues mismatch (-want +got):\n%s", diff)
	}
}

// FuzzParseDictionary checks that ParseDictionary never panics, and that
// what it accepts it accepts again from the members' raw text.
func FuzzParseDictionary(f *testing.F) {
	for _, s := range []string{"train-ai=n", `a="x\"y", b=?0;p=:aGk=:`, "a=(b c)", "*x=y;q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Longer inputs return at once, so that they reach no new code and
		// are never minimised: minimising costs a number of executions
		// quadratic in the size (see fuzzMaxBytes in the robots package).
		if len(s) > 256 {
			return
		}
		ms, err := ParseDictionary(s)
		if err != nil {
			return
		}
		var b []byte
		for i, m := range ms {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, m.Key...)
			if m.Raw != "" && m.Raw[0] != ';' { // a bare key keeps only its parameters
				b = append(b, '=')
				b = append(b, m.Raw...)
			}
		}
		again, err := ParseDictionary(string(b))
		if err != nil || len(again) != len(ms) {
			t.Fatalf("ParseDictionary(%q) = %d members, but their text %q gives %d, %v", s, len(ms), b, len(again), err)
		}
	})
}
