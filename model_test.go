package robots

import (
	"slices"
	"strings"
)

// The models the package's answers are held to, which share no code with
// it: the slow model (slowAllowed: the whole file read byte by byte for
// every question, as Google's reference parser reads it) and the
// brute-force precedence (bruteDecision: every rule of the crawler's
// records tried). The tests that ask them about whole files are in
// model_files_test.go.

// slowAllowed is a slow, obviously correct model of Google's reference
// parser that the fast code must agree with. Like the reference, it reads the
// whole file for every question, byte by byte, keeps the best allow and
// disallow priority seen for the specific and the global group, and matches
// patterns by simulating every position of the path at once. It shares no
// code with the package.
func slowAllowed(body []byte, agents []string, url string) bool {
	path := slowPathOf(url)
	if path == "/robots.txt" {
		return true
	}
	if len(body) > 512000 {
		body = body[:512000]
	}
	m := slowMatcher{path: path, agents: agents}
	m.allowSpecific, m.disallowSpecific = -1, -1
	m.allowGlobal, m.disallowGlobal = -1, -1

	const maxLine = 2083*8 - 1
	var line []byte
	bom := 0
	lastCR := false
	for _, c := range body {
		if bom < 3 {
			if c == "\xEF\xBB\xBF"[bom] {
				bom++
				continue
			}
			bom = 3
		}
		if c != '\n' && c != '\r' {
			if len(line) < maxLine {
				line = append(line, c)
			}
			continue
		}
		if !(len(line) == 0 && lastCR && c == '\n') {
			m.line(line)
		}
		line = line[:0]
		lastCR = c == '\r'
	}
	m.line(line)
	return !m.disallowed()
}

type slowMatcher struct {
	path   string
	agents []string

	seenGlobal, seenSpecific, everSpecific, seenSeparator bool

	allowSpecific, disallowSpecific int
	allowGlobal, disallowGlobal     int
}

func (m *slowMatcher) disallowed() bool {
	if m.allowSpecific > 0 || m.disallowSpecific > 0 {
		return m.disallowSpecific > m.allowSpecific
	}
	if m.everSpecific {
		return false
	}
	if m.allowGlobal > 0 || m.disallowGlobal > 0 {
		return m.disallowGlobal > m.allowGlobal
	}
	return false
}

const slowSpace = " \t\n\v\f\r"

func (m *slowMatcher) line(b []byte) {
	s := string(b)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, slowSpace)
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		sep = strings.IndexAny(s, " \t")
		if sep < 0 {
			return
		}
		if strings.ContainsAny(strings.TrimLeft(s[sep:], " \t"), " \t") {
			return
		}
	}
	key := strings.Trim(s[:sep], slowSpace)
	value := strings.Trim(s[sep+1:], slowSpace)
	if key == "" {
		return
	}
	k := slowLower(key)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("user-agent", "useragent", "user agent"):
		m.userAgent(value)
	case has("allow"):
		m.rule(true, slowEscape(value))
	case has("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		m.rule(false, slowEscape(value))
	}
}

func (m *slowMatcher) userAgent(v string) {
	if m.seenSeparator {
		m.seenGlobal, m.seenSpecific, m.seenSeparator = false, false, false
	}
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || strings.IndexByte(slowSpace, v[1]) >= 0) {
		m.seenGlobal = true
		return
	}
	n := 0
	for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '-' || v[n] == '_') {
		n++
	}
	for _, a := range m.agents {
		if slowLower(a) == slowLower(v[:n]) {
			m.seenSpecific, m.everSpecific = true, true
			return
		}
	}
}

func (m *slowMatcher) rule(allow bool, pattern string) {
	if !m.seenGlobal && !m.seenSpecific {
		return
	}
	m.seenSeparator = true
	prio := -1
	if slowMatch(m.path, pattern) {
		prio = len(pattern)
	} else if allow {
		if i := strings.LastIndexByte(pattern, '/'); i >= 0 && strings.HasPrefix(pattern[i:], "/index.htm") {
			p := pattern[:i+1] + "$"
			if slowMatch(m.path, p) {
				prio = len(p)
			}
		}
	}
	if prio < 0 {
		return
	}
	best := &m.disallowGlobal
	switch {
	case allow && m.seenSpecific:
		best = &m.allowSpecific
	case allow:
		best = &m.allowGlobal
	case m.seenSpecific:
		best = &m.disallowSpecific
	}
	*best = max(*best, prio)
}

// slowMatch reports whether pattern matches path by keeping the set of path
// positions reachable after each pattern byte.
func slowMatch(path, pattern string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '$' && i == len(pattern)-1:
			return pos[len(pos)-1] == len(path)
		case c == '*':
			next := []int{}
			for p := pos[0]; p <= len(path); p++ {
				next = append(next, p)
			}
			pos = next
		default:
			next := []int{}
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					next = append(next, p+1)
				}
			}
			if len(next) == 0 {
				return false
			}
			pos = next
		}
	}
	return true
}

func slowLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func slowEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		hex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
		switch {
		case c == '%' && i+2 < len(s) && hex(s[i+1]) && hex(s[i+2]):
			b.WriteString(strings.ToUpper(s[i : i+3]))
			i += 2
		case c >= 0x80:
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// slowPathOf extracts the path, parameters and query of url as the
// reference's GetPathParamsQuery does, then reads it as the C string the
// reference's matcher takes (up to its first NUL).
func slowPathOf(url string) string {
	path, _, _ := strings.Cut(slowPathParamsQuery(url), "\x00")
	return path
}

// slowPathParamsQuery is the reference's GetPathParamsQuery, on the whole
// URL.
func slowPathParamsQuery(url string) string {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	early := strings.IndexAny(url[start:], "/?;")
	proto := strings.Index(url[start:], "://")
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += start + 3
	}
	i := strings.IndexAny(url[proto:], "/?;")
	if i < 0 {
		return "/"
	}
	pathStart := proto + i
	end := len(url)
	if hash := strings.IndexByte(url[start:], '#'); hash >= 0 {
		if start+hash < pathStart {
			return "/"
		}
		end = start + hash
	}
	if url[pathStart] != '/' {
		return "/" + url[pathStart:end]
	}
	return url[pathStart:end]
}

// bruteDecision is the deciding rule of Google's precedence, found by
// trying every rule of the crawler's records: the longest matching escaped
// pattern (an allow of ".../index.htm" also matching ".../" at the end,
// with the priority of ".../$"), allow on a tie, and among equal rules the
// earliest line. It reads the records of r as Records gives them, and
// shares no matching code with the package. ok is false when no rule
// decides.
func bruteDecision(r *Robots, agent, path string) (best Rule, ok bool) {
	return bruteGroupDecision(r, []string{agent}, path)
}

// bruteGroupDecision is bruteDecision for the group of several agents
// (Robots.Group): the records that name any of them, else those that name
// "*".
func bruteGroupDecision(r *Robots, agents []string, path string) (best Rule, ok bool) {
	var named, global []Record
	for _, rec := range r.Records() {
		for _, a := range rec.Agents {
			if a.Token == "*" {
				global = append(global, rec)
				break
			}
		}
		names := func(a Agent) bool {
			return a.Token != "*" && slices.ContainsFunc(agents, func(s string) bool { return strings.EqualFold(a.Token, s) })
		}
		if slices.ContainsFunc(rec.Agents, names) {
			named = append(named, rec)
		}
	}
	if len(named) == 0 {
		named = global
	}
	bestPrio := -1
	for _, rec := range named {
		for _, w := range rec.Rules {
			p := slowEscape(w.Pattern)
			prio := -1
			switch {
			case p == "":
			case slowMatch(path, p):
				prio = len(p)
			case w.Allow:
				if i := strings.LastIndexByte(p, '/'); i >= 0 && strings.HasPrefix(p[i:], "/index.htm") && slowMatch(path, p[:i+1]+"$") {
					prio = i + 2
				}
			}
			if prio < 0 {
				continue
			}
			if prio > bestPrio || prio == bestPrio && (w.Allow && !best.Allow || w.Allow == best.Allow && w.Line < best.Line) {
				best, bestPrio, ok = w, prio, true
			}
		}
	}
	return best, ok
}
