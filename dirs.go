package robots

// How a layout keeps the directories of index.htm allow rules that compile
// left out (omitDirs): in 3 bytes each, most often.
//
// What it buys, in bytes kept per input byte, warm (TestKeptPerByte,
// TestKeptPerByteSmallFiles): leaving the directory rules out (omitDirs)
// keeps index-htm at 1.45 at 4 KiB rather than 1.70; 3 bytes an entry
// rather than 4 buys 4.3% of that (1.511 with 4 bytes, over the bound of
// 1.5; raw-index-htm the same), and 3.5-3.8% at 16 and 500 KiB.

// A dirList holds the directories of a laid-out set (bigSet.dirs), each
// as the index of its index.htm rule in the set, below 1<<16 (fileDirs),
// and the length of the directory, escaped, its head. An entry is 3 bytes
// when every directory is shorter than its rule's priority by less than
// 256 bytes (the "index.htm" after it, and little more), the index then
// that difference; else 4, the index then the length; each a byte at a
// time, the lowest first.
type dirList struct {
	b    []byte
	wide bool
}

// packDirs returns the dirList of dirs, each the index of an index.htm
// rule of rules shifted left 16 and the length of its directory.
func packDirs(rules []rule, dirs []uint32) dirList {
	l := dirList{}
	for _, d := range dirs {
		l.wide = l.wide || rules[d>>16].priority()-int(d&0xFFFF) > 0xFF
	}
	w := l.width()
	l.b = make([]byte, w*len(dirs))
	for k, d := range dirs {
		e := l.b[w*k:]
		e[0], e[1] = byte(d>>16), byte(d>>24)
		if l.wide {
			e[2], e[3] = byte(d), byte(d>>8)
		} else {
			e[2] = byte(rules[d>>16].priority() - int(d&0xFFFF))
		}
	}
	return l
}

// width returns the bytes an entry takes.
func (l *dirList) width() int {
	if l.wide {
		return 4
	}
	return 3
}

// len returns the number of directories.
func (l *dirList) len() int { return len(l.b) / l.width() }

// empty reports whether l holds no directory: a test that every question
// to a laid-out set makes, with no division.
func (l *dirList) empty() bool { return len(l.b) == 0 }

// at returns directory k, whose index.htm rule is among rules: the index
// of the rule shifted left 16, and the length of the directory.
func (l *dirList) at(rules []rule, k int) uint32 {
	w := l.width()
	e := l.b[w*k : w*k+w]
	i := uint32(e[0]) | uint32(e[1])<<8
	if l.wide {
		return i<<16 | uint32(e[2]) | uint32(e[3])<<8
	}
	return i<<16 | uint32(rules[i].priority()-int(e[2]))
}

// size returns the bytes the directories take.
func (l *dirList) size() int { return sliceSize[byte](cap(l.b)) }
