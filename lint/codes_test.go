package lint

import (
	"errors"
	"testing"
)

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

func TestDiagnosticsErr(t *testing.T) {
	if err := Check([]byte("user-agent: *\ncrawl-delay: 5\ndisallow: /a$b\n")).Err(); err != nil {
		t.Errorf("Err() = %v for a file with warnings only, want nil", err)
	}
	var l Diagnostics
	if err := l.Err(); err != nil {
		t.Errorf("Err() of an empty list = %v, want nil", err)
	}
	err := Check([]byte("disallow: /a\nuser-agent: *\ndisallow: fish\ncrawl-delay: 1\n")).Err()
	var errs Diagnostics
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("Err() = %#v, want the two errors", err)
	}
	want := `robots: line 1: Disallow line before any user-agent line: it applies to no crawler (and 1 more)`
	if err.Error() != want {
		t.Errorf("Err().Error() = %q, want %q", err.Error(), want)
	}
}
