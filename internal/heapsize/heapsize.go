// Package heapsize counts bytes as the Go heap spends them, each
// allocation rounded up to its size class, for MemSize (TestMemSize): the
// root package's parsed form and the engine's layouts (package ruleset).
package heapsize

import "unsafe"

// sizeClasses are the object sizes of Go's allocator up to 32 KiB
// (internal/runtime/gc.SizeClassToSize).
var sizeClasses = [...]uint16{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160,
	176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640,
	704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200,
	3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// Alloc returns the bytes the heap spends on an allocation of n bytes:
// its size class, or n itself for a large object.
func Alloc(n int) int {
	if n <= 0 {
		return 0
	}
	for _, c := range sizeClasses {
		if int(c) >= n {
			return int(c)
		}
	}
	return n
}

// Slice returns the bytes of the array of a slice of c elements of
// type E (unsafe.Sizeof is a constant: no pointer is converted).
func Slice[E any](c int) int {
	var e E
	return Alloc(c * int(unsafe.Sizeof(e)))
}

// Object returns the bytes the heap spends on a new T.
func Object[T any]() int {
	var v T
	return Alloc(int(unsafe.Sizeof(v)))
}
