package fuzz

import (
	"bytes"
	"time"
)

// Minimize stops trying candidates after maxShrinkSteps of them or
// maxShrinkTime, so that a disagreement on a 500 KiB file, or with a 16 KB
// URL, is still reported in seconds; the case is then only partly
// minimised.
const (
	maxShrinkSteps = 20000
	maxShrinkTime  = 10 * time.Second
)

// Minimize shrinks a failing case: first the file, by removing runs of whole
// lines (each with its own line break, so line endings are kept), blanking
// lines when their length matters, then removing runs of bytes; then the
// URL, by removing bytes; then the agents. fails reports whether a candidate
// still fails; it must hold for the input. The result still fails.
func Minimize(body []byte, q Query, fails func([]byte, Query) bool) ([]byte, Query) {
	steps := 0
	deadline := time.Now().Add(maxShrinkTime)
	done := func() bool { return steps >= maxShrinkSteps || time.Now().After(deadline) }
	try := func(b []byte, q Query) bool {
		if done() {
			return false
		}
		steps++
		return fails(b, q)
	}

	lines := shrink(splitKeepingBreaks(body), done, func(lines [][]byte) bool {
		return try(bytes.Join(lines, nil), q)
	})
	// When the size cap decides, removing a line moves the cap: blank lines
	// out instead, keeping their length.
	lines = blank(lines, done, func(lines [][]byte) bool {
		return try(bytes.Join(lines, nil), q)
	})
	// Then runs of bytes, which shortens long lines and values.
	body = shrink(bytes.Join(lines, nil), done, func(b []byte) bool {
		return try(b, q)
	})
	url := shrink([]byte(q.URL), done, func(url []byte) bool {
		return try(body, Query{Agents: q.Agents, URL: string(url)})
	})
	q.URL = string(url)

	for i := 0; len(q.Agents) > 1 && i < len(q.Agents); {
		agents := append(append([]string(nil), q.Agents[:i]...), q.Agents[i+1:]...)
		if cand := (Query{Agents: agents, URL: q.URL}); try(body, cand) {
			q = cand
			continue
		}
		i++
	}
	return body, q
}

// shrink removes runs of elements from xs as long as still holds for what
// remains: runs of len(xs), then half as long, down to single elements. It
// stops early when done returns true.
func shrink[T any](xs []T, done func() bool, still func([]T) bool) []T {
	for chunk := len(xs); chunk >= 1 && !done(); {
		removed := false
		for i := 0; i+chunk <= len(xs) && !done(); {
			cand := make([]T, 0, len(xs)-chunk)
			cand = append(append(cand, xs[:i]...), xs[i+chunk:]...)
			if still(cand) {
				xs, removed = cand, true
				continue
			}
			i += chunk
		}
		if !removed {
			chunk /= 2
		}
	}
	return xs
}

// blank replaces runs of lines by spaces of the same length, keeping their
// line breaks, as long as still holds, until done returns true.
func blank(lines [][]byte, done func() bool, still func([][]byte) bool) [][]byte {
	for chunk := len(lines); chunk >= 1 && !done(); chunk /= 2 {
		for i := 0; i+chunk <= len(lines) && !done(); i += chunk {
			cand := make([][]byte, len(lines))
			copy(cand, lines)
			changed := false
			for j := i; j < i+chunk; j++ {
				if b := blanked(lines[j]); !bytes.Equal(b, lines[j]) {
					cand[j], changed = b, true
				}
			}
			if changed && still(cand) {
				lines = cand
			}
		}
	}
	return lines
}

// blanked returns line with every byte but its line break replaced by a
// space.
func blanked(line []byte) []byte {
	n := len(bytes.TrimRight(line, "\r\n"))
	b := bytes.Repeat([]byte(" "), len(line))
	copy(b[n:], line[n:])
	return b
}

// splitKeepingBreaks splits body into lines, each keeping the line break
// that ends it (LF, CR or CRLF).
func splitKeepingBreaks(body []byte) [][]byte {
	var lines [][]byte
	for len(body) > 0 {
		i := bytes.IndexAny(body, "\r\n")
		if i < 0 {
			lines = append(lines, body)
			break
		}
		end := i + 1
		if body[i] == '\r' && end < len(body) && body[end] == '\n' {
			end++
		}
		lines = append(lines, body[:end])
		body = body[end:]
	}
	return lines
}
