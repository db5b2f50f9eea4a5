package fetch

// The local store of a Cache: its entries in least recently used order,
// bounded in bytes and in hosts. The functions here are called with
// Cache.mu held.

// entryOverhead is what an entry keeps beside its URL, body and parsed
// rules: the entry, its list element and its map slot, rounded up.
const entryOverhead = 512

// lookup returns the entry of robotsURL, made if need be, and marks it as the
// most recently used.
func (c *Cache) lookup(robotsURL string) *entry {
	if el, ok := c.entries[robotsURL]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*entry)
	}
	e := &entry{st: State{RobotsURL: robotsURL}}
	e.el = c.lru.PushFront(e)
	c.entries[robotsURL] = e.el
	c.resize(e)
	c.evict()
	return e
}

// resize counts again the bytes e holds: its URL (twice: in the entry and
// as the map key), its last good body, the URL it came from and the parsed
// rules. An entry larger
// than MaxBytes alone is kept all the same: evict forgets it once it is no
// longer the most recently used, so that the questions about that one host
// do not fetch its file again every time.
func (c *Cache) resize(e *entry) {
	if e.el == nil {
		return
	}
	size := entryOverhead + 2*int64(len(e.st.RobotsURL)) +
		int64(len(e.st.Body)) + int64(len(e.st.GoodURL)) + int64(memSize(e.good)) + e.copy.memSize()
	c.held += size - e.size
	e.size = size
}

// evict forgets the least recently used entries beyond the bounds, except
// the most recently used and those with a refresh in progress: their
// callers wait on them, and a new entry would start a second fetch of the
// same file. Entries in flight do not count against MaxHosts (they cannot
// be forgotten), so that more hosts in flight than MaxHosts do not make
// each result forgotten as it arrives; their bytes count against MaxBytes.
func (c *Cache) evict() {
	el := c.lru.Back()
	for el != nil && el != c.lru.Front() &&
		(c.held+c.memoBytes > c.opts.MaxBytes || c.lru.Len()-c.inFlight > c.opts.MaxHosts) {
		e, prev := el.Value.(*entry), el.Prev()
		if e.done == nil {
			c.forget(e)
		}
		el = prev
	}
}

// forget removes e from the Cache.
func (c *Cache) forget(e *entry) {
	c.lru.Remove(e.el)
	delete(c.entries, e.st.RobotsURL)
	c.held -= e.size
	e.el, e.size = nil, 0
	c.stats.evictions.Add(1)
}
