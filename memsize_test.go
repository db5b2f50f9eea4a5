package robots

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// heapKept returns the bytes of heap that the values made by parse keep
// reachable, measured after a collection, and those values.
func heapKept(parse func() []*Robots) (int, []*Robots) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rs := parse()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int(after.HeapAlloc) - int(before.HeapAlloc), rs
}

// memSizeTolerance is how far MemSize may be from the heap, as a fraction.
const memSizeTolerance = 0.10

// realWorldBodies reads the real-world corpus.
func realWorldBodies(t testing.TB) [][]byte {
	dir := "/work/shared/testdata/realworld"
	if _, err := os.Stat(dir); err != nil {
		dir = "testdata/realworld"
	}
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	var bodies [][]byte
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
	}
	return bodies
}

// TestMemSize checks MemSize against the heap the parsed files keep, over
// the real-world corpus as a whole and over each hostile file.
func TestMemSize(t *testing.T) {
	inputs := map[string][][]byte{"realworld": realWorldBodies(t)}
	for name, body := range hostileFiles() {
		inputs["hostile/"+name] = [][]byte{[]byte(body)}
	}
	for name, bodies := range inputs {
		t.Run(name, func(t *testing.T) {
			heap, rs := heapKept(func() []*Robots {
				rs := make([]*Robots, len(bodies))
				for i, b := range bodies {
					rs[i] = Parse(b)
					rs[i].Allowed("Googlebot", "/a")
				}
				return rs
			})
			size := sliceSize[*Robots](len(rs))
			for _, r := range rs {
				size += r.MemSize()
			}
			if diff := float64(size-heap) / float64(heap); diff > memSizeTolerance || diff < -memSizeTolerance {
				t.Errorf("MemSize sums to %d bytes, the heap kept %d (%+.1f%%)", size, heap, 100*diff)
			}
			t.Logf("MemSize %d, heap %d", size, heap)
			runtime.KeepAlive(rs)
		})
	}
}

func TestMemSizeShared(t *testing.T) {
	tests := []struct {
		name string
		r    *Robots
	}{
		{"nil", nil},
		{"allow-all", AllowAll()},
		{"disallow-all", DisallowAll()},
	}
	for _, tt := range tests {
		if got := tt.r.MemSize(); got != 0 {
			t.Errorf("%s: MemSize() = %d, want 0", tt.name, got)
		}
	}
}

// TestKeptPerByte reports the bytes a parsed file keeps per byte of input,
// over the real-world corpus and each hostile file.
func TestKeptPerByte(t *testing.T) {
	in, kept, largest, largestKept := 0, 0, 0, 0
	for _, b := range realWorldBodies(t) {
		n := Parse(b).MemSize()
		in += len(b)
		kept += n
		if len(b) > largest {
			largest, largestKept = len(b), n
		}
	}
	t.Logf("realworld: %.2f (%d of %d bytes); largest file %.2f", float64(kept)/float64(in), kept, in, float64(largestKept)/float64(largest))
	for name, body := range hostileFiles() {
		t.Logf("hostile/%s: %.2f", name, float64(Parse([]byte(body)).MemSize())/float64(min(len(body), MaxSize)))
	}
}

// TestLazyIndex checks that the index of a large set is built on its first
// question, once, even when questions race, and that MemSize counts it
// from then on.
func TestLazyIndex(t *testing.T) {
	var body strings.Builder
	body.WriteString("user-agent: *\n")
	for i := range 100 {
		body.WriteString("disallow: /p" + strconv.Itoa(i) + "/\n")
	}
	r := Parse([]byte(body.String()))
	set := r.global.sets[0]
	before := r.MemSize()
	if set.index.Load() != nil {
		t.Fatal("the index is built before the first question")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r.Allowed("a", "/p42/x") {
				t.Error("Allowed(/p42/x) = true, want false")
			}
		}()
	}
	wg.Wait()
	x := set.index.Load()
	if x == nil {
		t.Fatal("no index after the first question")
	}
	if got, want := r.MemSize(), before+x.memSize(); got != want {
		t.Errorf("MemSize() = %d after the first question, want %d (%d before, and the index)", got, want, before)
	}
	if allocs := testing.AllocsPerRun(10, func() { r.Allowed("a", "/p42/x") }); allocs != 0 {
		t.Errorf("Allowed allocates %v times once the index is built", allocs)
	}
}
