package signals

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

// prefs returns the known preferences of a Content-Usage or Content-Signal
// field as a map, for comparisons: 'y', 'n', or absent.
func prefs(keys []string, ps ...robots.Preference) map[string]byte {
	out := map[string]byte{}
	for i, p := range ps {
		if p != robots.PreferenceUnknown {
			out[keys[i]] = p.String()[0]
		}
	}
	return out
}

func TestContentUsageHeader(t *testing.T) {
	tests := []struct {
		name     string
		in       []string
		want     map[string]byte
		problems int
	}{
		{"attach-05/header", []string{"train-ai=n"}, map[string]byte{"train-ai": 'n'}, 0},
		{"vocab-08/example", []string{"train-ai=y, search=n"}, map[string]byte{"train-ai": 'y', "search": 'n'}, 0},
		{"vocab-08/ai-use", []string{"ai-use=n", "search=y"}, map[string]byte{"ai-use": 'n', "search": 'y'}, 0},
		{"vocab/multiple-preferences", []string{`train-ai=y, train-ai, search=n, search="n"`}, map[string]byte{}, 2},
		{"vocab/parameters", []string{"train-ai;allow=n, train-ai=y"}, map[string]byte{"train-ai": 'y'}, 0},
		{"vocab/uppercase-fails", []string{"Train-AI=n"}, map[string]byte{}, 1},
		{"unknown-category", []string{"bots=n, train-ai=n"}, map[string]byte{"train-ai": 'n'}, 1},
		{"lines/last-wins", []string{"train-ai=n", "train-ai=y"}, map[string]byte{"train-ai": 'y'}, 0},
		{"absent", nil, map[string]byte{}, 1}, // the empty dictionary does not parse
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := contentUsageHeader(tt.in)
			if diff := cmp.Diff(tt.want, prefs([]string{"train-ai", "ai-use", "search"}, got.TrainAI, got.AIUse, got.Search)); diff != "" {
				t.Errorf("contentUsageHeader(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if len(problems) != tt.problems {
				t.Errorf("problems = %q, want %d", problems, tt.problems)
			}
		})
	}
}

func TestContentSignalHeader(t *testing.T) {
	tests := []struct {
		name     string
		in       []string
		want     map[string]byte
		problems int
	}{
		{"cloudflare/example", []string{"search=yes, ai-input=yes, ai-train=no"}, map[string]byte{"search": 'y', "ai-input": 'y', "ai-train": 'n'}, 0},
		{"case", []string{"AI-Train=NO"}, map[string]byte{"ai-train": 'n'}, 0},
		{"no-wins", []string{"ai-train=no", "ai-train=yes"}, map[string]byte{"ai-train": 'n'}, 0},
		{"bad", []string{"ai-train=maybe, use=x, ,"}, map[string]byte{}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problems := contentSignalHeader(tt.in)
			if diff := cmp.Diff(tt.want, prefs([]string{"search", "ai-input", "ai-train"}, got.Search, got.AIInput, got.AITrain)); diff != "" {
				t.Errorf("contentSignalHeader(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if len(problems) != tt.problems {
				t.Errorf("problems = %q, want %d", problems, tt.problems)
			}
		})
	}
}
