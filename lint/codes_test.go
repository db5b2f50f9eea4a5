package lint

import "testing"

func TestSeverityText(t *testing.T) {
	for _, s := range []Severity{SeverityInfo, SeverityWarning, SeverityError} {
		b, _ := s.MarshalText()
		var got Severity
		if err := got.UnmarshalText(b); err != nil || got != s {
			t.Errorf("UnmarshalText(%q) = %v, %v, want %v", b, got, err, s)
		}
	}
	if got := Severity(9).String(); got != "severity(9)" {
		t.Errorf("Severity(9).String() = %q", got)
	}
	var s Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Error(`UnmarshalText("fatal") succeeded`)
	}
}
