package signals

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseContentUsage(t *testing.T) {
	tests := []struct {
		name     string
		in       []string
		want     map[string]Pref
		problems int
	}{
		{"attach-05/header", []string{"train-ai=n"}, map[string]Pref{"train-ai": 'n'}, 0},
		{"vocab-08/example", []string{"train-ai=y, search=n"}, map[string]Pref{"train-ai": 'y', "search": 'n'}, 0},
		{"vocab-08/ai-use", []string{"ai-use=n", "search=y"}, map[string]Pref{"ai-use": 'n', "search": 'y'}, 0},
		{"vocab/multiple-preferences", []string{`train-ai=y, train-ai, search=n, search="n"`}, map[string]Pref{}, 2},
		{"vocab/parameters", []string{"train-ai;allow=n, train-ai=y"}, map[string]Pref{"train-ai": 'y'}, 0},
		{"vocab/uppercase-fails", []string{"Train-AI=n"}, map[string]Pref{}, 1},
		{"unknown-category", []string{"bots=n, train-ai=n"}, map[string]Pref{"train-ai": 'n'}, 1},
		{"absent", nil, map[string]Pref{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseContentUsage(tt.in)
			if diff := cmp.Diff(tt.want, got.Prefs); diff != "" {
				t.Errorf("ParseContentUsage(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if len(got.Problems) != tt.problems {
				t.Errorf("Problems = %q, want %d", got.Problems, tt.problems)
			}
		})
	}
}

func TestParseContentSignal(t *testing.T) {
	tests := []struct {
		name     string
		in       []string
		want     map[string]Pref
		problems int
	}{
		{"cloudflare/example", []string{"search=yes, ai-input=yes, ai-train=no"}, map[string]Pref{"search": 'y', "ai-input": 'y', "ai-train": 'n'}, 0},
		{"case", []string{"AI-Train=NO"}, map[string]Pref{"ai-train": 'n'}, 0},
		{"no-wins", []string{"ai-train=no", "ai-train=yes"}, map[string]Pref{"ai-train": 'n'}, 0},
		{"bad", []string{"ai-train=maybe, use=x, ,"}, map[string]Pref{}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseContentSignal(tt.in)
			if diff := cmp.Diff(tt.want, got.Prefs); diff != "" {
				t.Errorf("ParseContentSignal(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if len(got.Problems) != tt.problems {
				t.Errorf("Problems = %q, want %d", got.Problems, tt.problems)
			}
		})
	}
}
