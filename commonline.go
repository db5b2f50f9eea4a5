package robots

// Lines read in one pass: most lines of real files are written with one of
// the common keys right at their start ("Disallow: /path", "User-agent:
// x", "Sitemap: url"), and Parse reads such a line's key, cuts its value
// and keeps it as it scans for the line's end.
//
// What it buys: Parse + first question over the real-world corpus costs
// 17.75 ms of CPU a pass with this pass, 20.10 ms (+13%) when every line
// goes through lineScanner.next and handle (cpu-ns/op, measured as in
// pool.go).

// scanCommon reads the lines from ls.off on, one after the other, while
// each is blank or a comment alone, or starts with a key commonKey knows
// and its content has at most maxLineLen bytes: it does with each what
// handle would. It stops at the first other line, or at the end of the
// body, and leaves ls there, for ls.next and handle; nothing of that line
// is kept. The scanner's place is held in locals, not written to ls at
// every line.
func (p *parser) scanCommon(ls *lineScanner) {
	s, off, n := ls.s, ls.off, ls.n
	for off < len(s) {
		start := off
		if c := s[start]; isStop(c) {
			// A blank line, or a comment alone: nothing to read. (breakAt,
			// inline for a blank line.)
			end := start
			if c != '\n' && c != '\r' {
				end = lineEnd(s, start+1)
			}
			off = pastBreak(s, end)
			n++
			continue
		}
		if start+8 > len(s) {
			break
		}
		kind, keyLen := commonKey(s[start:])
		if keyLen == 0 {
			break
		}
		// The content is at most maxLineLen bytes: a longer line is left
		// to ls.next without reading all of it.
		line := s[:min(len(s), start+maxLineLen+1)]
		v := start + keyLen + 1 // past the colon
		for v < len(line) && isBlank(line[v]) {
			v++
		}
		cut := nextStop(line, v)
		if cut-start > maxLineLen {
			break
		}
		// breakAt, inline for the most lines, which stop at their break.
		end := cut
		if end < len(s) && s[end] != '\n' && s[end] != '\r' {
			end = lineEnd(s, end+1)
		}
		off = pastBreak(s, end)
		n++
		vend := cut
		for vend > v && isSpace(s[vend-1]) {
			vend--
		}
		p.directive(kind, "", s[v:vend], n)
	}
	ls.off, ls.n = off, n
}

// isBlank reports whether c is whitespace that does not end a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }
