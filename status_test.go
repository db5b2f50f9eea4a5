package robots

import (
	"testing"
)

func TestStatus(t *testing.T) {
	body := []byte("user-agent: *\ndisallow: /private")
	tests := []struct {
		name            string
		code            int
		private, public bool
		reason          Reason
	}{
		{"google/status/200", 200, false, true, ReasonRule},
		{"google/status/299", 299, false, true, ReasonNoMatch},
		{"google/status/301-gave-up", 301, true, true, ReasonAllowAll},
		{"google/status/404", 404, true, true, ReasonAllowAll},
		{"google/status/401", 401, true, true, ReasonAllowAll},
		{"google/status/403", 403, true, true, ReasonAllowAll},
		{"google/status/429", 429, false, false, ReasonDisallowAll},
		{"google/status/500", 500, false, false, ReasonDisallowAll},
		{"google/status/503", 503, false, false, ReasonDisallowAll},
		{"status/1xx", 100, false, false, ReasonDisallowAll},
		{"status/zero", 0, false, false, ReasonDisallowAll},
		{"status/600", 600, false, false, ReasonDisallowAll},
		{"status/negative", -1, false, false, ReasonDisallowAll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := FromStatus(tt.code, body)
			if got := r.Allowed("a", "/private"); got != tt.private {
				t.Errorf("Allowed(/private) = %t, want %t", got, tt.private)
			}
			if got := r.Allowed("a", "/public"); got != tt.public {
				t.Errorf("Allowed(/public) = %t, want %t", got, tt.public)
			}
			if got := r.Decide("a", "/public").Reason; tt.code != 200 && got != tt.reason {
				t.Errorf("Decide(/public).Reason = %v, want %v", got, tt.reason)
			}
			if !r.Allowed("a", "/robots.txt") {
				t.Errorf("Allowed(/robots.txt) = false, want true")
			}
		})
	}
}
