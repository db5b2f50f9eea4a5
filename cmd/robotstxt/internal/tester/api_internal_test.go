package tester

import (
	"slices"
	"testing"
)

// TestTopKeys checks that topKeys finds the keys of the outer object only,
// past strings with escaped quotes and brackets, nested objects and arrays.
func TestTopKeys(t *testing.T) {
	data := []byte(`{"a": "x\"}{,[\\", "b\u0063": {"inner": [1, {"deep": 2}], "s": "]"}, "d": [ {"e": 1} ], "f": null}`)
	var got []string
	if err := topKeys(data, func(k string) error { got = append(got, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "bc", "d", "f"}; !slices.Equal(got, want) {
		t.Errorf("topKeys = %q, want %q", got, want)
	}
}
