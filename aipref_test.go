package robots

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/corpus"
)

// attachExample is the example file of draft-ietf-aipref-attach-05,
// section 3.4.
const attachExample = corpus.AttachExample

// attachExample02 is the same example in draft-ietf-aipref-attach-02, where
// the path was required.
const attachExample02 = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: / train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: / train-ai=y
`

const contentSignalsExample = corpus.ContentSignalsExample

func TestPreferences(t *testing.T) {
	y, n := PreferenceYes, PreferenceNo
	tests := []struct {
		name       string
		body       string
		agent, url string
		want       Preferences
	}{
		{"attach/example-test", attachExample, "OtherBot", "/test",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{4}}}},
		{"attach/example-never", attachExample, "OtherBot", "/never/test", Preferences{}},
		{"attach/example-ai-ok", attachExample, "OtherBot", "https://example.com/ai-ok/test",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{5}}}},
		{"attach/example-examplebot", attachExample, "ExampleBot", "/never/test",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{9}}}},
		{"attach-02/example-test", attachExample02, "OtherBot", "/test",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{4}}}},
		{"attach-02/example-ai-ok", attachExample02, "OtherBot", "/ai-ok/test",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{5}}}},
		{"attach-02/example-examplebot", attachExample02, "ExampleBot", "/x",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{9}}}},
		{"attach/no-path-below-root", "user-agent: *\ncontent-usage: train-ai=n\ncontent-usage: / train-ai=y\n", "a", "/x",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{3}}}},
		{"attach/no-path-tie", "user-agent: *\ncontent-usage: train-ai=n\ncontent-usage: train-ai=y, search=y\n", "a", "/x",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Search: y, Lines: []int{2, 3}}}},
		{"attach/intro", "User-Agent: *\nAllow: /\nContent-Usage: / train-ai=n\n", "a", "/x",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{3}}}},
		{"attach/n-wins-tie", "user-agent: *\ncontent-usage: /a train-ai=y, search=y\ncontent-usage: /a train-ai=n\n", "a", "/a",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Search: y, Lines: []int{2, 3}}}},
		{"attach/longest-wins", "user-agent: *\ncontent-usage: /a/b train-ai=y\ncontent-usage: /a train-ai=n\n", "a", "/a/b/c",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{2}}}},
		{"attach/wildcard", "user-agent: *\ncontent-usage: /*.pdf$ search=n\n", "a", "/doc/x.pdf",
			Preferences{Allowed: true, Usage: ContentUsage{Search: n, Lines: []int{2}}}},
		{"attach/no-match", "user-agent: *\ncontent-usage: /a train-ai=n\n", "a", "/b", Preferences{Allowed: true}},
		{"attach/interleaved", "user-agent: *\ncontent-usage: / train-ai=n\ndisallow: /x\n", "a", "/y",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{2}}}},
		{"vocab-08/ai-use", "user-agent: *\ncontent-usage: train-ai=n, ai-use=y\n", "a", "/deep/page",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, AIUse: y, Lines: []int{2}}}},
		{"vocab-07/old-category-kept", "user-agent: *\ncontent-usage: train-ai=n, train-genai=y\n", "a", "/deep/page",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{2},
				Other: []UsageValue{{Key: "train-genai", Value: "y", Line: 2}}}}},
		{"vocab-07/format-example", "user-agent: *\ncontent-usage: / train-ai=y, search=n\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Search: n, Lines: []int{2}}}},
		{"vocab-07/duplicates-unknown", "user-agent: *\ncontent-usage: / train-ai=y, train-ai, search=n, search=\"n\"\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{Lines: []int{2},
				Other: []UsageValue{{Key: "train-ai", Value: "", Line: 2}, {Key: "search", Value: `"n"`, Line: 2}}}}},
		{"vocab-07/parameters-ignored", "user-agent: *\ncontent-usage: / train-ai;allow=n, train-ai=y\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: y, Lines: []int{2}}}},
		{"vocab-07/parameters-unknown", "user-agent: *\ncontent-usage: / train-ai;has;parameters=\"?\"\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{Lines: []int{2},
				Other: []UsageValue{{Key: "train-ai", Value: `;has;parameters="?"`, Line: 2}}}}},
		{"vocab-07/parameters-unknown-verbatim", "user-agent: *\ncontent-usage: / train-ai;has;parameters=\"?\";\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{Lines: []int{2}}}},
		{"vocab-07/upper-case-fails", "user-agent: *\ncontent-usage: / Train-AI=n\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{Lines: []int{2}}}},
		{"vocab-07/unknown-key-kept", "user-agent: *\ncontent-usage: / train-ai=n, bots=y;q=1\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{TrainAI: n, Lines: []int{2},
				Other: []UsageValue{{Key: "bots", Value: "y;q=1", Line: 2}}}}},
		{"vocab-07/no-is-not-n", "user-agent: *\ncontent-usage: / train-ai=no\n", "a", "/",
			Preferences{Allowed: true, Usage: ContentUsage{Lines: []int{2},
				Other: []UsageValue{{Key: "train-ai", Value: "no", Line: 2}}}}},
		{"signals/cloudflare", contentSignalsExample, "GPTBot", "/",
			Preferences{Allowed: true, Signals: ContentSignals{AITrain: n, Search: y, AIInput: y, Lines: []int{2}}}},
		{"signals/scoped-to-group", "user-agent: GPTBot\ncontent-signal: ai-train=no\nallow: /\n\nuser-agent: *\ncontent-signal: ai-train=yes\n",
			"gptbot", "/", Preferences{Allowed: true, Signals: ContentSignals{AITrain: n, Lines: []int{2}}}},
		{"signals/global-group", "user-agent: GPTBot\ncontent-signal: ai-train=no\nallow: /\n\nuser-agent: *\ncontent-signal: ai-train=yes\n",
			"ClaudeBot", "/", Preferences{Allowed: true, Signals: ContentSignals{AITrain: y, Lines: []int{6}}}},
		{"signals/apply-when-disallowed", "user-agent: *\ndisallow: /\ncontent-signal: search=yes\n", "a", "/x",
			Preferences{Signals: ContentSignals{Search: y, Lines: []int{3}}}},
		{"signals/no-wins", "user-agent: *\ncontent-signal: search=yes\ncontent-signal: search=no\n", "a", "/",
			Preferences{Allowed: true, Signals: ContentSignals{Search: n, Lines: []int{2, 3}}}},
		{"signals/other-kept", "user-agent: *\ncontent-signal: Search=YES, use=ok, ai-train=maybe\n", "a", "/",
			Preferences{Allowed: true, Signals: ContentSignals{Search: y, Lines: []int{2},
				Other: []UsageValue{{Key: "use", Value: "ok", Line: 2}, {Key: "ai-train", Value: "maybe", Line: 2}}}}},
		{"signals/outside-group", "content-signal: ai-train=no\nuser-agent: *\n", "a", "/", Preferences{Allowed: true}},
		{"none", "user-agent: *\ndisallow: /a\n", "a", "/", Preferences{Allowed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse([]byte(tt.body)).Preferences(tt.agent, tt.url)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Preferences(%q, %q) mismatch (-want +got):\n%s", tt.agent, tt.url, diff)
			}
		})
	}
}

// TestPreferencesLeaveAllowed checks that usage preference lines change no
// answer of Allowed.
func TestPreferencesLeaveAllowed(t *testing.T) {
	plain := Parse([]byte("user-agent: *\ndisallow: /never/\nallow: /never/ok\n"))
	with := Parse([]byte("user-agent: *\ncontent-usage: /never/ train-ai=y\ndisallow: /never/\n" +
		"content-signal: search=yes\nallow: /never/ok\ncontent-usage: / train-ai=n\n"))
	for _, url := range []string{"/", "/never/", "/never/ok", "/x"} {
		if a, b := plain.Allowed("a", url), with.Allowed("a", url); a != b {
			t.Errorf("Allowed(%q, %q) = %t with usage lines, %t without", "a", url, b, a)
		}
	}
}

// TestPreferencesLargeFile checks that every Content-Usage rule of a file
// under MaxSize counts, however many there are: the rules that a file of
// MaxSize bytes made of one group per rule cannot hold as well.
func TestPreferencesLargeFile(t *testing.T) {
	const yes = 15000
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for range yes {
		b.WriteString("content-usage: /a train-ai=y\n")
	}
	b.WriteString("content-usage: /a train-ai=n\n")
	if b.Len() > MaxSize {
		t.Fatalf("file of %d bytes, more than MaxSize", b.Len())
	}
	lines := make([]int, yes+1)
	for i := range lines {
		lines[i] = i + 2
	}
	want := Preferences{Allowed: true, Usage: ContentUsage{TrainAI: PreferenceNo, Lines: lines}}
	// The same file with 2 rules saying yes, as the large one must answer.
	small := Parse([]byte("user-agent: *\ncontent-usage: /a train-ai=y\ncontent-usage: /a train-ai=y\ncontent-usage: /a train-ai=n\n"))
	if got := small.Preferences("a", "/a"); got.Usage.TrainAI != PreferenceNo {
		t.Fatalf("small file: Preferences(%q, %q).Usage.TrainAI = %v, want %v", "a", "/a", got.Usage.TrainAI, PreferenceNo)
	}
	got := Parse([]byte(b.String())).Preferences("a", "/a")
	if got.Usage.TrainAI != want.Usage.TrainAI || len(got.Usage.Lines) != len(want.Usage.Lines) {
		t.Fatalf("Preferences(%q, %q).Usage: TrainAI = %v from %d lines, want %v from %d",
			"a", "/a", got.Usage.TrainAI, len(got.Usage.Lines), want.Usage.TrainAI, len(want.Usage.Lines))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Preferences(%q, %q) mismatch (-want +got):\n%s", "a", "/a", diff)
	}
}

// TestMatchUsagePathsLarge checks contentUsage, on more paths than one
// robots.txt of MaxSize bytes holds as groups, against matching each path
// alone in a file of its own: the lines it applies are those of the longest
// matching paths.
func TestMatchUsagePathsLarge(t *testing.T) {
	filler := strings.Repeat("z", 400) // so that fewer paths fill MaxSize bytes
	paths := []string{"", "/", "/1", "/1", "/*.pdf$"}
	for i := range 6000 {
		n := strconv.Itoa(i)
		paths = append(paths, [...]string{"/" + n, "/" + n + filler + "$", "/*" + n, "/%7E" + n, "/~" + n + "*x"}[i%5])
	}
	lines := make([]Extra, len(paths))
	size := 0
	for i, p := range paths {
		lines[i] = Extra{Value: strings.TrimPrefix(p+" train-ai=n", " "), Line: i + 1}
		size += len("User-agent: a\nDisallow: \n") + len(p)
	}
	if size <= MaxSize {
		t.Fatalf("the %d paths fit in one file", len(paths))
	}
	urls := []string{"/", "/1", "/12", "/123", "/1234", "/5995", "/x/2345.pdf", "/~3456", "/~4444x", "https://example.com/5999?q"}
	for _, url := range urls {
		priority := make([]int, len(paths))
		best := -1
		for i, p := range paths {
			one := Parse([]byte("user-agent: *\ndisallow: " + p + "\n"))
			if d := one.Decide("a", url); d.Reason == ReasonRule {
				priority[i] = len(d.Rule.Pattern)
			} else if p != "" {
				priority[i] = -1
			}
			best = max(best, priority[i])
		}
		var want []int
		for i := range paths {
			if priority[i] == best {
				want = append(want, i+1)
			}
		}
		if got := contentUsage(lines, url).Lines; !slices.Equal(got, want) {
			t.Fatalf("contentUsage(%q).Lines = %v, want %v", url, got, want)
		}
	}
}

// distinctPaths returns Content-Usage lines, of n bytes at most, each with
// a path of its own, as short as can be.
func distinctPaths(n int) string {
	var b strings.Builder
	for i := 0; ; i++ {
		line := "content-usage:/" + strconv.FormatInt(int64(i), 36) + "\n"
		if b.Len()+len(line) > n {
			return b.String()
		}
		b.WriteString(line)
	}
}

// TestParseUsageValues checks the parsers that Preferences reads each line
// with and that package signals reads the headers with (issue 32, item 6).
func TestParseUsageValues(t *testing.T) {
	s := ParseContentSignal("Search=YES, ai-input=maybe, use=x, ai-train=yes, ai-train=no")
	want := ContentSignals{Search: PreferenceYes, AITrain: PreferenceNo, Other: []UsageValue{{Key: "ai-input", Value: "maybe"}, {Key: "use", Value: "x"}}, Lines: []int{0}}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("ParseContentSignal mismatch (-want +got):\n%s", diff)
	}
	u, err := ParseContentUsage(`train-ai=n, train-ai=y, search="n", bots=n`)
	wantU := ContentUsage{TrainAI: PreferenceYes, Other: []UsageValue{{Key: "search", Value: `"n"`}, {Key: "bots", Value: "n"}}}
	if diff := cmp.Diff(wantU, u); diff != "" || err != nil {
		t.Errorf("ParseContentUsage mismatch, err %v (-want +got):\n%s", err, diff)
	}
	if u, err := ParseContentUsage("/ train-ai=n"); err == nil || u.TrainAI != PreferenceUnknown {
		t.Errorf("ParseContentUsage of a rule with its path = %+v, %v; want an error and nothing known", u, err)
	}
}
