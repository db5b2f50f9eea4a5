package lines

import "testing"

func TestAgentToken(t *testing.T) {
	tests := []struct{ value, want string }{
		{"Googlebot", "Googlebot"},
		{"Googlebot/2.1", "Googlebot"},
		{"googlebot-news", "googlebot-news"},
		{"MJ12bot", "MJ"},
		{"*", "*"},
		{"* foo", "*"},
		{"*\tfoo", "*"},
		{"*x", ""},
		{"", ""},
		{"é-bot", ""},
	}
	for _, tt := range tests {
		if got := AgentToken(tt.value); got != tt.want {
			t.Errorf("AgentToken(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
}
