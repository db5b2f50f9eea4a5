package ruleset

// How a layout chooses where the anchor table (float.go) files each
// wildcard rule of a large set: its anchor, the cheapest gram of its tail
// by the counts of every tail's grams, counted and chosen a byte at a
// time; and, for a rule not single, the rarest byte of its tail. Buys a
// large set's layout, against a gram at a time through a closure
// (BenchmarkLayout; bench/RESULTS.md, "What each mechanism buys").

// gramCounts counts the grams of the tails of a set's wildcard rules, to
// choose their anchors: exactly for a byte, hashed for longer grams (2^freqBits
// counters a length), where a collision only makes a choice less good;
// each count stops at 1<<16-1.
type gramCounts [256 + 2<<freqBits]uint16

const freqBits = 12

// filedTail returns the pattern of r, a wildcard rule, after its head, as
// a table files it: its folded directory's if it stands for one.
func (s *ruleSet) filedTail(r rule) string {
	p := s.pattern(r)
	if j := s.foldedDir(r); j > 0 {
		p = p[:j]
	}
	return p[r.headLen():]
}

// count counts in c each run of one, two and three consecutive literal
// bytes of the wildcard pattern p (a gram), each ending at the byte read.
func (c *gramCounts) count(p string) {
	var last uint32 // the last bytes read, the last lowest
	run := 0        // how many are literal
	for i := range len(p) {
		if p[i] == '*' {
			run = 0
			continue
		}
		last, run = last<<8|uint32(p[i]), run+1
		c.add(last & 0xFF)
		if run > 1 {
			c.add(256 + (2<<24|last&0xFFFF<<8)*fibonacci32>>(32-freqBits))
		}
		if run > 2 {
			c.add(256 + 1<<freqBits + (3<<24|last&0xFFFFFF)*fibonacci32>>(32-freqBits))
		}
	}
}

// add adds one to counter k, up to 1<<16-1.
func (c *gramCounts) add(k uint32) {
	if c[k] < 1<<16-1 {
		c[k]++
	}
}

// cheapest returns the cheapest gram of p and where it starts: of the
// least count, a byte's counted 16 times and a run of two's 4 times, the
// first by where it starts, then by length. One pass, as count.
func (c *gramCounts) cheapest(p string) (anchor uint32, at int) {
	best := uint64(1<<64 - 1) // count<<32 | start<<2 | length
	var last uint32
	run := 0
	for i := range len(p) {
		if p[i] == '*' {
			run = 0
			continue
		}
		last, run = last<<8|uint32(p[i]), run+1
		best = min(best, uint64(c[last&0xFF])<<36|uint64(i)<<2|1)
		if run > 1 {
			best = min(best, uint64(c[256+(2<<24|last&0xFFFF<<8)*fibonacci32>>(32-freqBits)])<<34|uint64(i-1)<<2|2)
		}
		if run > 2 {
			best = min(best, uint64(c[256+1<<freqBits+(3<<24|last&0xFFFFFF)*fibonacci32>>(32-freqBits)])<<32|uint64(i-2)<<2|3)
		}
	}
	at = int(best >> 2 & (1<<30 - 1))
	return gram(p, at, int(best&3)), at
}

// rarest returns the first of the rarest literal bytes of p, by how
// rarely URL paths hold them (rarity).
func rarest(p string) byte {
	var r, best byte
	for i := range len(p) {
		if rk := rarity[p[i]]; rk > best {
			r, best = p[i], rk
		}
	}
	return r
}

// rarity ranks the bytes by how rarely URL paths hold them, the rarest
// greatest: "/-._", letters, digits, capitals, others; "*" none.
var rarity = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c == '*':
		case c == '/' || c == '-' || c == '.' || c == '_':
			t[c] = 1
		case 'a' <= c && c <= 'z':
			t[c] = 2
		case '0' <= c && c <= '9':
			t[c] = 3
		case 'A' <= c && c <= 'Z':
			t[c] = 4
		default:
			t[c] = 5
		}
	}
	return t
}()
