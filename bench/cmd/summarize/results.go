package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// results are the outputs of one run of bench/run.sh, as read from its
// folder.
type results struct {
	Meta     []metaLine // meta.txt: date, commit, machine, load
	Commands string     // commands.txt, verbatim
	Kept     keptRatios // kept.txt: TestKeptPerByte -v

	CoreParse, CoreAllowed, CoreHostile []table // the core's benchmarks
	PeersAllowed, PeersParse, PeersSize []table // bench/'s, against the peers
	LongWorst, LongAdversarial          []table // bench/'s long paths: BenchmarkWorstCase, BenchmarkAdversarialWildcards
}

// A metaLine is one "key: value" line of meta.txt.
type metaLine struct{ Key, Value string }

// readResults reads the folder dir written by bench/run.sh.
func readResults(dir string) (*results, error) {
	r := &results{}
	var err error
	if r.Meta, err = readMeta(filepath.Join(dir, "meta.txt")); err != nil {
		return nil, err
	}
	cmds, err := os.ReadFile(filepath.Join(dir, "commands.txt"))
	if err != nil {
		return nil, err
	}
	r.Commands = string(cmds)
	f, err := os.Open(filepath.Join(dir, "kept.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if r.Kept, err = parseKept(f); err != nil {
		return nil, err
	}
	csvs := []struct {
		name string
		dst  *[]table
	}{
		{"core-parse", &r.CoreParse},
		{"core-allowed", &r.CoreAllowed},
		{"core-hostile", &r.CoreHostile},
		{"peers-allowed", &r.PeersAllowed},
		{"peers-parse", &r.PeersParse},
		{"peers-size", &r.PeersSize},
		{"long-worst", &r.LongWorst},
		{"long-adversarial", &r.LongAdversarial},
	}
	for _, c := range csvs {
		if *c.dst, err = readBenchstat(filepath.Join(dir, c.name+".csv")); err != nil {
			return nil, err
		}
	}
	if _, err := longRows(r); err != nil {
		return nil, err
	}
	return r, nil
}

// readBenchstat reads one CSV file of benchstat.
func readBenchstat(path string) ([]table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tables, err := parseBenchstat(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("%s: no table (did the benchmarks run?)", path)
	}
	return tables, nil
}

// readMeta reads the "key: value" lines of path.
func readMeta(path string) ([]metaLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var meta []metaLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not key: value", path, sc.Text())
		}
		meta = append(meta, metaLine{k, v})
	}
	return meta, sc.Err()
}

// peakLoad returns the highest 1-minute load average of the run (before,
// at each round's start, after) and the number of cores; ok is false if
// meta.txt lacks them.
func (r *results) peakLoad() (peak, cores float64, ok bool) {
	cores, err := strconv.ParseFloat(r.metaValue("cores"), 64)
	if err != nil {
		return 0, 0, false
	}
	before, _, _ := strings.Cut(r.metaValue("load before"), " ")
	after, _, _ := strings.Cut(r.metaValue("load after"), " ")
	loads := append(strings.Fields(r.metaValue("load at each round's start")), before, after)
	for _, l := range loads {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil {
			return 0, 0, false
		}
		peak = max(peak, v)
	}
	return peak, cores, true
}

// metaValue returns the value of key in meta, or "?".
func (r *results) metaValue(key string) string {
	for _, m := range r.Meta {
		if m.Key == key {
			return m.Value
		}
	}
	return "?"
}
