package signals

// Bounds on the response header fields Decide reads: X-Robots-Tag,
// Content-Usage, Content-Signal, tdm-reservation and tdm-policy. A
// client's default bound on a whole header is 10 MB (net/http), and no
// real field of these is over a kilobyte: each field (its lines joined)
// is read up to maxFieldBytes, each dictionary up to maxFieldMembers
// members, and a problem says what was left out, so that any header costs
// Decide a few times maxFieldBytes, not a multiple of its own size.

import "strconv"

// maxFieldBytes bounds the bytes read of one header field, all its lines.
const maxFieldBytes = 8 << 10

// maxFieldMembers bounds the members read of one Content-Usage or
// Content-Signal field.
const maxFieldMembers = 64

// maxPolicyLen bounds a tdm-policy URL, from a header or a meta tag.
const maxPolicyLen = 2048

// capField returns the lines of field name up to maxFieldBytes in all (the
// ", " that joins them counted), the last one cut after its last comma
// within the bound (or at the bound if it has none), and a problem if
// anything was left out; it reads no line past the bound.
func capField(name string, lines []string) ([]string, string) {
	n := 0
	for i, l := range lines {
		if i > 0 {
			n += len(", ")
		}
		if n+len(l) <= maxFieldBytes {
			n += len(l)
			continue
		}
		out := lines[:i:i]
		if room := maxFieldBytes - n; room > 0 {
			cut := l[:room]
			if j := lastComma(cut); j >= 0 {
				cut = cut[:j]
			}
			out = append(out, cut)
		}
		return out, name + " is longer than " + strconv.Itoa(maxFieldBytes) + " bytes: the rest is ignored"
	}
	return lines, ""
}

// lastComma returns the index of the last ',' in s, or -1.
func lastComma(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ',' {
			return i
		}
	}
	return -1
}

// capMembers returns text cut before its (maxFieldMembers+1)th member,
// members being separated by commas outside quoted strings (RFC 9651,
// section 3.2), and a problem if it was cut.
func capMembers(name, text string) (string, string) {
	n, quoted := 1, false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			if n++; n > maxFieldMembers {
				return text[:i], name + ": more than " + strconv.Itoa(maxFieldMembers) + " members: the others are ignored"
			}
		}
	}
	return text, ""
}
