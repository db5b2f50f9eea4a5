package fetch_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/gorep/robots/fetch"
)

// TestTransportCheck checks Transport.Check: the refusal RoundTrip would
// give (a *DisallowedError), nil for an allowed URL, and unchecked for what
// RoundTrip passes through; nothing but robots.txt requested.
func TestTransportCheck(t *testing.T) {
	var pages atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			return
		}
		pages.Add(1)
	}))
	defer srv.Close()
	tr, err := fetch.NewTransport(nil, "CheckBot/1.0", fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path       string
		checked    bool
		disallowed bool
	}{
		{"/public", true, false},
		{"/private/x", true, true},
		{"/robots.txt", false, false},
	}
	for _, tt := range tests {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+tt.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		checked, err := tr.Check(req)
		if checked != tt.checked || errors.Is(err, fetch.ErrDisallowed) != tt.disallowed || !tt.disallowed && err != nil {
			t.Errorf("Check(%s) = %t, %v, want checked %t, disallowed %t", tt.path, checked, err, tt.checked, tt.disallowed)
		}
	}
	if n := pages.Load(); n != 0 {
		t.Errorf("%d pages requested, want 0", n)
	}
}
