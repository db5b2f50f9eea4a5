package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A markdown is a markdown table being written: a header, then rows.
type markdown struct {
	head  []string
	right []bool // right-aligned columns (numbers)
	rows  [][]string
}

// newMarkdown returns a table with the columns head; every column but the
// first holds numbers and is right-aligned.
func newMarkdown(head ...string) *markdown {
	right := make([]bool, len(head))
	for i := 1; i < len(right); i++ {
		right[i] = true
	}
	return &markdown{head: head, right: right}
}

// add appends a row; missing trailing cells are left empty.
func (m *markdown) add(cells ...string) {
	m.rows = append(m.rows, cells)
}

// write writes the table to w, followed by a blank line.
func (m *markdown) write(w io.Writer) {
	fmt.Fprintf(w, "| %s |\n|", strings.Join(m.head, " | "))
	for _, r := range m.right {
		if r {
			fmt.Fprint(w, "---:|")
		} else {
			fmt.Fprint(w, "---|")
		}
	}
	fmt.Fprintln(w)
	for _, r := range m.rows {
		cells := make([]string, len(m.head))
		copy(cells, r)
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}

// grouped formats x with at most prec decimals and commas between groups
// of three digits: 1234.5 with prec 0 is "1,235".
func grouped(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// threeDigits formats x with about three significant digits, grouped:
// 0.0123, 1.23, 12.3, 123, 1,234.
func threeDigits(x float64) string {
	switch a := math.Abs(x); {
	case a == 0:
		return "0"
	case a < 0.1:
		return strconv.FormatFloat(x, 'g', 3, 64)
	case a < 10:
		return grouped(x, 2)
	case a < 100:
		return grouped(x, 1)
	default:
		return grouped(x, 0)
	}
}

// nanos formats a benchstat sec/op cell in ns, with its confidence
// interval: "44.2 ±2%".
func nanos(c cell) string { return threeDigits(c.Value*1e9) + ci(c) }

// megabytes formats a benchstat B/s cell in MB/s (10⁶ bytes, as go test
// prints it), with its confidence interval.
func megabytes(c cell) string { return threeDigits(c.Value/1e6) + ci(c) }

// ci returns " ±3%" for a confidence interval of 3%, and "" for none
// (benchstat's "∞" with fewer than 6 runs, or 0%).
func ci(c cell) string {
	if c.CI == "" || c.CI == "∞" || c.CI == "0%" {
		return ""
	}
	return " ±" + c.CI
}

// times formats a ratio: "2.5×", "13×", "406×", "6,997×".
func times(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return "–"
	}
	switch {
	case x >= 10:
		return grouped(x, 0) + "×"
	case x >= 0.1:
		return threeDigits(x) + "×"
	}
	return grouped(x, 2) + "×"
}

// percent formats a share as a percentage: "4.12 %".
func percent(x float64) string { return threeDigits(100*x) + " %" }

// shortest formats a goal or a bound as written: 1, 1.5, 20.
func shortest(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
