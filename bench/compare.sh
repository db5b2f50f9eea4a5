#!/usr/bin/env bash
# compare.sh OLD [NEW] compares the core's warm questions at two commits
# (NEW defaults to HEAD): BenchmarkAllowed and BenchmarkDecide on the four
# real files, in COUNT alternating rounds on one machine state.
#
# A question of a small file takes ~50 ns, and its time moves by up to
# ~12 % with where the linker happens to place the loops of its path: Go
# aligns a function to 32 bytes, so a loop near its start either fits in one
# 64-byte line of code or straddles two, as unrelated code before it grows
# or shrinks (RESULTS.md, "A warm question across commits: where the code
# lands"). Each commit is therefore built twice: as users build it, and with
# every function at the start of a 64-byte line (go test -c
# -ldflags=-funcalign=64), where the same code takes the same time at both
# commits. A difference in the second pair is the code's; one in the first
# alone is placement, which users get by luck either way.
#
# COUNT (10), BENCHTIME (0.3s) and BENCH (the -test.bench regexp) set the
# effort; the raw outputs go to OUT (a new temporary directory), and to
# stdout benchstat's tables (pinned as in run.sh) and the fastest round of
# each side.
set -euo pipefail
cd "$(dirname "$0")/.."

old=${1:?usage: bench/compare.sh OLD [NEW]}
new=${2:-HEAD}
COUNT="${COUNT:-10}"
BENCHTIME="${BENCHTIME:-0.3s}"
BENCH="${BENCH:-^Benchmark(Allowed|Decide)\$/^file=}"
BENCHSTAT_VERSION=v0.0.0-20260908200009-22c9c6c9d4da
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"

benchstat() { go run "golang.org/x/perf/cmd/benchstat@$BENCHSTAT_VERSION" "$@"; }
say() { printf '%s compare.sh: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for side in old new; do
  rev=${!side}
  say "building $side = $rev ($(git rev-parse --short=7 "$rev"))"
  mkdir "$tmp/$side"
  git archive "$rev" | tar -x -C "$tmp/$side"
  (cd "$tmp/$side" && go test -c -o "$tmp/$side.test" . &&
    go test -c -ldflags=-funcalign=64 -o "$tmp/$side-align64.test" .)
done

for i in $(seq "$COUNT"); do
  say "round $i of $COUNT (load $(cut -d' ' -f1-3 /proc/loadavg))"
  for b in old new old-align64 new-align64; do
    (cd "$tmp/${b%-align64}" && "$tmp/$b.test" -test.run '^$' -test.bench "$BENCH" \
      -test.count 1 -test.benchtime "$BENCHTIME" -test.benchmem) >>"$OUT/$b.txt"
  done
done

# fastest prints, per benchmark, the fastest round of each side and their
# ratio: on a machine shared with other work, the least disturbed rounds
# say more than the medians.
fastest() {
  awk -v a="$1" -v b="$2" '
    /^Benchmark/ && $4 == "ns/op" {
      k = $1; f = FILENAME
      if (!(k in seen)) { seen[k] = 1; keys[++n] = k }
      if (!((f, k) in min) || $3 < min[f, k]) min[f, k] = $3
    }
    END {
      printf "%-40s %10s %10s %8s\n", "fastest round (ns/op)", "old", "new", "new/old"
      for (i = 1; i <= n; i++) {
        k = keys[i]
        if ((a, k) in min && (b, k) in min)
          printf "%-40s %10.2f %10.2f %8.3f\n", k, min[a, k], min[b, k], min[b, k] / min[a, k]
      }
    }' "$1" "$2"
}

say "raw outputs in $OUT"
echo "# as built by users: $old vs $new"
benchstat -filter .unit:sec/op "old=$OUT/old.txt" "new=$OUT/new.txt"
fastest "$OUT/old.txt" "$OUT/new.txt"
echo
echo "# every function at a 64-byte line (-ldflags=-funcalign=64): $old vs $new"
benchstat -filter .unit:sec/op "old=$OUT/old-align64.txt" "new=$OUT/new-align64.txt"
fastest "$OUT/old-align64.txt" "$OUT/new-align64.txt"
