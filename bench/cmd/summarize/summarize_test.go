package main

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/run/summary.golden and readme.golden")

// TestSummaryGolden summarizes testdata/run, the folder of a short run of
// bench/run.sh (COUNT=2, so without confidence intervals), and compares it
// with testdata/run/summary.golden. Its long-*.csv were added later, from
// two rounds of the long-path benchmarks at 84ed7dd (LONG_BENCHTIME=20x).
func TestSummaryGolden(t *testing.T) {
	r, err := readResults("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	writeSummary(&got, r)
	golden := filepath.Join("testdata", "run", "summary.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("summary of testdata/run (-want +got):\n%s", diff)
	}
}

// TestReadmeGolden writes the README's short table of testdata/run and
// compares it with testdata/run/readme.golden; TestReadmeRows checks its
// computed cells.
func TestReadmeGolden(t *testing.T) {
	r, err := readResults("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	writeReadme(&got, r)
	golden := filepath.Join("testdata", "run", "readme.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("README table of testdata/run (-want +got):\n%s", diff)
	}
}

// TestReadmeRows checks rows of the README's short table against the
// canned run, so that its golden file cannot silently hold a wrong one.
func TestReadmeRows(t *testing.T) {
	r, err := readResults("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeReadme(&b, r)
	tests := []struct{ name, row string }{
		// core-parse.csv: parse+query 4.144e+07 B/s ÷ linescan 1.91335e+09 B/s.
		{"first-question", "| `Parse` + first question, real-world corpus (5,748,778 B) | 41.4 MB/s, 2.17 % of a bare line scan | – | – |"},
		// kept.txt: realworld 1.79, largest 1.28; the most of the hostile files.
		{"kept", "| kept ÷ input (`MemSize`): corpus / largest real file / worst hostile | 1.79 / 1.28 / 5.11 | – | – |"},
		// core-hostile.csv: the slowest short path.
		{"hostile", "| a question on a hostile 500 KiB file, the slowest | 8,810,943 ns (invalid-utf8) | – | – |"},
		// long-adversarial.csv: disorder 10000 8KB, the slowest warm
		// (0.080433166 s) and first (0.0848357575 s) of every shape.
		{"long", "| an 8 KB path against 10,000 wildcard rules, the slowest shape: warm / first | 80,433 / 84,836 µs (disorder) | – | – |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(b.String(), tt.row+"\n") {
				t.Errorf("README table has no row %q:\n%s", tt.row, b.String())
			}
		})
	}
}

// TestSummaryRows checks rows of the golden summary that carry a ratio
// computed from two medians of the canned CSV, so that the golden file
// cannot silently hold a wrong one.
func TestSummaryRows(t *testing.T) {
	r, err := readResults("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeSummary(&b, r)
	tests := []struct{ name, row string }{
		// core-allowed.csv: 1.3368e-07 / 2.9914e-07 s, and / 1.5e-07 s (the
		// AllowedMatchFloor column, added to the canned run by hand).
		{"core/allowed-over-floor", "| small-670B | 134 | 299 | 150 | 0.45× | ≤ 2× | 0.89× | 0 |"},
		// core-parse.csv: 3.8e+07 / 1.91335e+09 B/s.
		{"core/parse-share", "| `Parse` | 38.0 | 152 | 20,190,144 | 79,989 | 1.99 % | ≥ 20 % |"},
		// peers-allowed.csv: robots 119.825, robots-path 52.77, floor 24.325,
		// floor-match 12 (added by hand), temoto 17.488, grobotstxt 26,846 ns.
		{"peers/ratios", "| small | 4.93× | 9.99× | 4.40× | 0.15× | 0.33× | 224× | 0 |"},
		// kept.txt: realworld 1.79 (bound 1.9), goal 1.
		{"kept/corpus", "| real-world corpus, summed (5,748,778 B) | 1.79 | 1.9 | ≤ 1 | **no** |"},
		{"kept/hostile", "| hostile: wildcards-long | 1.00 | 1.5 | ≤ 1.5 | yes |"},
		// meta.txt: loads 3.22 (before), 3.28 3.86 (rounds), 4.02 (after) on 2 cores.
		{"load/warning", "**The machine was loaded**: the 1-minute load average reached 4.02 on 2 cores during the run, " +
			"so other work shared the cores; the ranges are wide and small differences mean nothing."},
		// core-hostile.csv has a-1k first: the short path comes first.
		{"hostile/columns", "| hostile file | short ns | a-1k ns | goal met (short path) |"},
		// long-worst.csv, rules 10000: warm 1.5593e-05, 2.3599e-05,
		// 4.49375e-05, 9.18425e-05 s at 1, 2, 4, 8 KB (8 ÷ 1 KB 5.89×,
		// steepest doubling 4 to 8 KB, 2.04×); first 0.001949419,
		// 0.0028428840, 0.005953503, 0.0147526005 s (7.57×, 2.48×): first
		// misses 200 µs at 8 KB and 2.2× a doubling.
		{"long/worst", "| generated | 10,000 | 15.6 | 91.8 | 5.89× | 1,949 | 14,753 | 7.57× | 2.04× / 2.48× | **no**: first 8 KB, first doubling |"},
		// long-adversarial.csv: suffix 1000 within the bound, warm and first.
		{"long/met", "| suffix | 1,000 | 20.8 | 76.8 | 3.69× | 73.4 | 69.9 | 0.95× | 1.66× / 1.73× | yes |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(b.String(), tt.row+"\n") {
				t.Errorf("summary has no row %q", tt.row)
			}
		})
	}
}

func TestParseBenchstat(t *testing.T) {
	in := `goos: linux
cpu: Some CPU, 2 cores
,robots,,temoto,,,
,sec/op,CI,sec/op,CI,vs base,P
small,1.5e-06,8%,4.6e-06,9%,+213.37%,p=0.002 n=6
large,0.00055,4%,,,,
geomean,2.5e-05,,0.0002,,+793.90%,

,robots,
,allocs/op,CI
small,21,0%
`
	got, err := parseBenchstat(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []table{
		{Unit: "sec/op", Cols: []string{"robots", "temoto"}, Rows: []row{
			{Name: "small", Cells: map[string]cell{"robots": {1.5e-06, "8%"}, "temoto": {4.6e-06, "9%"}}},
			{Name: "large", Cells: map[string]cell{"robots": {0.00055, "4%"}}},
		}},
		{Unit: "allocs/op", Cols: []string{"robots"}, Rows: []row{
			{Name: "small", Cells: map[string]cell{"robots": {21, "0%"}}},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseBenchstat (-want +got):\n%s", diff)
	}
}

func TestParseBenchstatErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not-a-number", ",robots,\n,sec/op,CI\nsmall,fast,1%\n", `row "small", column "robots"`},
		{"no-columns", ",,\n,,\n", "without columns"},
		{"no-unit", ",robots\n,\n", `column "robots" has no unit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseBenchstat(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("parseBenchstat(%q) error = %v, want one with %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseKept(t *testing.T) {
	in := `=== RUN   TestKeptPerByte
    memory_test.go:143: realworld: 1.79 (10282833 of 5748778 bytes); largest file (230767 bytes) 1.28
    memory_test.go:153: realworld: 1.79 bytes kept per input byte (bound 1.9)
    memory_test.go:153: one-line: 0.04 bytes kept per input byte (bound 1.5)
    memory_test.go:156: one-line: 0.04 bytes kept per input byte, over 0.0
--- PASS: TestKeptPerByte (0.27s)
`
	got, err := parseKept(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := keptRatios{
		Corpus: 1.79, CorpusKept: 10282833, CorpusBytes: 5748778, Largest: 1.28, LargestSize: 230767,
		Files: []kept{{"realworld", 1.79, 1.9}, {"one-line", 0.04, 1.5}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseKept (-want +got):\n%s", diff)
	}
	if _, err := parseKept(strings.NewReader("--- FAIL: TestKeptPerByte\n")); err == nil {
		t.Error("parseKept of a log without ratios: no error")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"grouped/thousands", grouped(1234567.8, 0), "1,234,568"},
		{"grouped/small", grouped(123, 0), "123"},
		{"grouped/negative", grouped(-1234.5, 1), "-1,234.5"},
		{"three/tiny", threeDigits(0.0123), "0.0123"},
		{"three/units", threeDigits(1.234), "1.23"},
		{"three/tens", threeDigits(12.34), "12.3"},
		{"three/thousands", threeDigits(1234.5), "1,234"},
		{"nanos/ci", nanos(cell{44.2e-9, "2%"}), "44.2 ±2%"},
		{"nanos/no-ci", nanos(cell{44.2e-9, "∞"}), "44.2"},
		{"megabytes", megabytes(cell{1.9195e+08, "9%"}), "192 ±9%"},
		{"times/small", times(0.17), "0.17×"},
		{"times/tiny", times(0.0828), "0.08×"},
		{"times/large", times(6997.4), "6,997×"},
		{"times/inf", times(1 / zero()), "–"},
		{"percent", percent(0.0412), "4.12 %"},
		{"shortest", shortest(1.5), "1.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// zero returns 0 where a constant would not compile in a division.
func zero() float64 { return 0 }

func TestSplice(t *testing.T) {
	doc := "## Performance\n\nprose\n\n" + readmeBegin + "\nold tables\n" + markEnd + "\n## License\n"
	tests := []struct {
		name, doc, want, err string
	}{
		{"replaces", doc, "## Performance\n\nprose\n\n" + readmeBegin + "\nnew tables\n" + markEnd + "\n## License\n", ""},
		{"no-begin", "## Performance\n" + markEnd, "", "no line"},
		{"other-begin", resultsBegin + "old\n" + markEnd, "", "no line"},
		{"no-end", readmeBegin + "old\n", "", "after the first marker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splice([]byte(tt.doc), []byte("new tables\n"), readmeBegin)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("splice error = %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("splice (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLongKey(t *testing.T) {
	tests := []struct {
		name      string
		withShape bool
		shape     string
		rules     string
		kb        int
		err       string
	}{
		{"10000 8KB", false, worstShape, "10000", 8, ""},
		{"nested 1000 1KB", true, "nested", "1000", 1, ""},
		{"nested 1000 1KB", false, "", "", 0, "want 2 fields"},
		{"1000 1KB", true, "", "", 0, "want 3 fields"},
		{"1000 8MB", false, "", "", 0, "not a length"},
		{"1000 KB", false, "", "", 0, "not a length"},
		{"1000 0KB", false, "", "", 0, "not a length"},
	}
	for _, tt := range tests {
		shape, rules, kb, err := longKey(tt.name, tt.withShape)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("longKey(%q, %v) error = %v, want one with %q", tt.name, tt.withShape, err, tt.err)
			}
			continue
		}
		if err != nil || shape != tt.shape || rules != tt.rules || kb != tt.kb {
			t.Errorf("longKey(%q, %v) = %q, %q, %d, %v; want %q, %q, %d", tt.name, tt.withShape,
				shape, rules, kb, err, tt.shape, tt.rules, tt.kb)
		}
	}
}

// us returns a cell of x µs.
func us(x float64) cell { return cell{Value: x * 1e-6} }

func TestSteepest(t *testing.T) {
	tests := []struct {
		name  string
		times map[int]cell
		want  float64
		ok    bool
	}{
		// 8 times the time over three doublings: 2 a doubling.
		{"1-and-8", map[int]cell{1: us(10), 8: us(80)}, 2, true},
		// 1.5, then 3: the steeper counts.
		{"steepest-pair", map[int]cell{1: us(10), 2: us(15), 4: us(45)}, 3, true},
		{"faster", map[int]cell{1: us(10), 2: us(5)}, 0.5, true},
		{"one-length", map[int]cell{8: us(80)}, 0, false},
		{"none", nil, 0, false},
	}
	for _, tt := range tests {
		got, ok := steepest(tt.times)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: steepest = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if got, _ := steepest(map[int]cell{1: us(0), 2: us(5)}); !math.IsInf(got, 1) {
		t.Errorf("steepest from 0 µs = %v, want +Inf", got)
	}
}

func TestLongBound(t *testing.T) {
	fast := map[int]cell{1: us(20), 8: us(160)} // 2× a doubling, 160 µs
	tests := []struct {
		name        string
		warm, first map[int]cell
		want        string
	}{
		{"met", fast, fast, "yes"},
		{"first-slow", fast, map[int]cell{1: us(30), 8: us(240)}, "**no**: first 8 KB"},
		{"warm-steep", map[int]cell{1: us(10), 8: us(120)}, fast, "**no**: warm doubling"},
		{"no-8KB", map[int]cell{1: us(10), 2: us(20)}, fast, missing},
		{"one-length", map[int]cell{8: us(100)}, fast, missing},
	}
	for _, tt := range tests {
		if got := longBound(longRow{Warm: tt.warm, First: tt.first}); got != tt.want {
			t.Errorf("%s: longBound = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSlowestLong(t *testing.T) {
	// Warm and first slowest in different shapes; the 1,000 rules and the
	// 1 KB paths, slower still, are not README's row.
	csv := func(rows ...string) []table {
		tables, err := parseBenchstat(strings.NewReader(",warm,,first,,,\n,sec/op,CI,sec/op,CI,vs base,P\n" +
			strings.Join(rows, "\n") + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		return tables
	}
	r := &results{
		LongWorst: csv("1000 8KB,0.9,,0.9,,,", "10000 8KB,0.0001,,0.003,,,"),
		LongAdversarial: csv("deep 10000 1KB,0.5,,0.5,,,", "deep 10000 8KB,0.0002,,0.002,,,",
			"wide 10000 8KB,0.00015,,0.001,,,"),
	}
	if got, want := slowestLong(r), "200 µs (deep) / 3,000 µs (generated)"; got != want {
		t.Errorf("slowestLong = %q, want %q", got, want)
	}
	if got := slowestLong(&results{}); got != missing {
		t.Errorf("slowestLong of no run = %q, want %q", got, missing)
	}
}

// TestReadResultsLongRow checks that a run whose long-path table has a row
// that is not shape, rules and length is refused.
func TestReadResultsLongRow(t *testing.T) {
	dir := t.TempDir()
	files, err := os.ReadDir("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "run", f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if f.Name() == "long-adversarial.csv" {
			b = bytes.Replace(b, []byte("prefix 1000 1KB,"), []byte("prefix 1KB,"), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := readResults(dir); err == nil || !strings.Contains(err.Error(), `row "prefix 1KB"`) {
		t.Errorf("readResults with a bad long-path row: error = %v, want one naming the row", err)
	}
}
