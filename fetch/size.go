package fetch

import "github.com/gorep/robots"

// memSize returns the bytes that r keeps in memory, as it reports them (see
// robots.Robots.MemSize); shared values such as robots.AllowAll() count
// nothing.
func memSize(r *robots.Robots) int {
	if r == nil || r == robots.AllowAll() || r == robots.DisallowAll() {
		return 0
	}
	return r.MemSize()
}
