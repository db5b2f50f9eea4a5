package heapsize

import "testing"

func TestAlloc(t *testing.T) {
	tests := []struct{ n, want int }{
		{-1, 0}, {0, 0}, {1, 8}, {8, 8}, {9, 16}, {33, 48}, {32768, 32768}, {32769, 32769}, {1 << 20, 1 << 20},
	}
	for _, tt := range tests {
		if got := Alloc(tt.n); got != tt.want {
			t.Errorf("Alloc(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
	if got := Slice[uint64](3); got != 24 {
		t.Errorf("Slice[uint64](3) = %d, want 24", got)
	}
	if got := Object[[5]uint32](); got != 24 {
		t.Errorf("Object[[5]uint32]() = %d, want 24 (20 bytes, class 24)", got)
	}
}

// TestAllocMatchesHeap checks the size classes against the heap: a
// slice's capacity after append grows to its size class.
func TestAllocMatchesHeap(t *testing.T) {
	for n := 1; n <= 4096; n++ {
		if got := cap(append([]byte(nil), make([]byte, n)...)); got != Alloc(n) {
			t.Fatalf("append of %d bytes has capacity %d, Alloc says %d", n, got, Alloc(n))
		}
	}
}
