//go:build !unix

package robots

// cpuTime returns 0: the CPU time of the process is not known here.
func cpuTime() int64 { return 0 }
