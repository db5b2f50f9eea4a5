#!/usr/bin/env bash
# run.sh measures, in one run of the current tree on one machine state,
# every number of README's "Performance" table and of RESULTS.md's latest
# run:
#
#   - the core's BenchmarkParseCorpus: a bare line scan of the real-world
#     corpus, Parse, and Parse plus a first question (MB/s);
#   - the core's BenchmarkAllowed/file= beside its floors,
#     BenchmarkAllowedFloor/file= (the least work of a question from the URL
#     and the agent) and BenchmarkAllowedMatchFloor/file= (of the match
#     alone), in ns per question;
#   - the core's BenchmarkHostile on the short and 1 KB paths;
#   - the core's TestKeptPerByte: bytes kept per input byte;
#   - this module's BenchmarkWorstCase and BenchmarkAdversarialWildcards:
#     a question for a path of 1 to 8 KB against 1,000 and 10,000 wildcard
#     rules, every shape they define, warm and first;
#   - this module's Parse, Allowed and Size against temoto/robotstxt and
#     jimsmart/grobotstxt.
#
# The test binaries are built first; then COUNT rounds each run every
# benchmark once, core and peers in turn, so that a change of machine load
# falls on all of them alike. benchstat (pinned) makes CSV tables of the
# rounds, and cmd/summarize turns them into results/<date>-<commit>/summary.md,
# beside the raw outputs. With -readme, the summary also replaces the
# generated part of RESULTS.md ("Latest run"), and its short table that of
# ../README.md's Performance section.
#
# Defaults take 6 to 7 minutes on 2 cores: COUNT=6 (benchstat's fewest for
# a confidence interval), BENCHTIME=0.3s per benchmark, 0.1s for the 24
# hostile ones (HOSTILE_BENCHTIME), and a fixed 20 iterations for the long
# paths (LONG_BENCHTIME=20x): their "first" questions re-Parse a file of up
# to 10,000 rules, untimed, before each iteration, which a time would
# multiply as the questions get faster.
set -euo pipefail
cd "$(dirname "$0")"

COUNT="${COUNT:-6}"
BENCHTIME="${BENCHTIME:-0.3s}"
HOSTILE_BENCHTIME="${HOSTILE_BENCHTIME:-0.1s}"
LONG_BENCHTIME="${LONG_BENCHTIME:-20x}"
BENCHSTAT_VERSION=v0.0.0-20260908200009-22c9c6c9d4da

readme=false
case "${1:-}" in
-readme) readme=true ;;
"") ;;
*) echo "usage: bench/run.sh [-readme]" >&2; exit 2 ;;
esac

benchstat() { go run "golang.org/x/perf/cmd/benchstat@$BENCHSTAT_VERSION" "$@"; }
say() { printf '%s run.sh: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

start=$SECONDS
commit=$(git rev-parse --short=7 HEAD)
dirty=""
if [ -n "$(git status --porcelain -- .. ':!results')" ]; then
  dirty="-dirty"
fi
out="results/$(date -u +%Y-%m-%d)-$commit$dirty"
rm -rf "$out"
mkdir -p "$out"
git status --porcelain -- .. ':!results' >"$out/git-status.txt"
say "writing $out"

meta() { printf '%s: %s\n' "$1" "$2" >>"$out/meta.txt"; }
meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta commit "$commit$dirty"
meta subject "$(git log -1 --format=%s HEAD | cut -c1-120)"
meta go "$(go version)"
meta "cpu (lscpu)" "$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
meta cores "$(nproc)"
meta memory "$(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
meta os "$(uname -srm)"
meta count "$COUNT"
meta benchtime "$BENCHTIME (hostile: $HOSTILE_BENCHTIME; long paths: $LONG_BENCHTIME)"
meta "load before" "$(loadavg)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "building the test binaries"
(cd .. && go test -c -o "$tmp/core.test" .)
go test -c -o "$tmp/peers.test" .

# cmd records a command in commands.txt as a reader would type it.
cmd() { printf '%s\n' "$*" >>"$out/commands.txt"; }
cmd "# built with: (cd .. && go test -c -o core.test .) && go test -c -o peers.test ."
cmd "# from the repository root:"
cmd "core.test -test.run '^TestKeptPerByte\$' -test.v -test.count 1   # = go test -run KeptPerByte -v ."
kept_rc=0
(cd .. && "$tmp/core.test" -test.run '^TestKeptPerByte$' -test.v -test.count 1) >"$out/kept.txt" 2>&1 || kept_rc=$?
meta "TestKeptPerByte exit status" "$kept_rc"

core_bench='^Benchmark(ParseCorpus|Allowed|AllowedFloor|AllowedMatchFloor)$/^(op|file)='
hostile_bench='^BenchmarkHostile$/^file=/^path=(short|a-1k)$'
peers_bench='^Benchmark(Parse|Allowed|Size)$'
long_bench='^Benchmark(WorstCase|AdversarialWildcards)$'
cmd "# $COUNT rounds of, in this order:"
cmd "core.test -test.run '^\$' -test.bench '$core_bench' -test.count 1 -test.benchtime $BENCHTIME -test.benchmem >> core.txt"
cmd "core.test -test.run '^\$' -test.bench '$hostile_bench' -test.count 1 -test.benchtime $HOSTILE_BENCHTIME -test.benchmem >> hostile.txt"
cmd "# from bench/:"
cmd "peers.test -test.run '^\$' -test.bench '$peers_bench' -test.count 1 -test.benchtime $BENCHTIME -test.benchmem >> peers.txt"
cmd "peers.test -test.run '^\$' -test.bench '$long_bench' -test.count 1 -test.benchtime $LONG_BENCHTIME -test.benchmem >> long.txt"
for i in $(seq "$COUNT"); do
  say "round $i of $COUNT (load $(loadavg))"
  printf 'round %s: load %s\n' "$i" "$(loadavg)" >>"$out/rounds.txt"
  (cd .. && "$tmp/core.test" -test.run '^$' -test.bench "$core_bench" -test.count 1 \
    -test.benchtime "$BENCHTIME" -test.benchmem) >>"$out/core.txt"
  (cd .. && "$tmp/core.test" -test.run '^$' -test.bench "$hostile_bench" -test.count 1 \
    -test.benchtime "$HOSTILE_BENCHTIME" -test.benchmem) >>"$out/hostile.txt"
  "$tmp/peers.test" -test.run '^$' -test.bench "$peers_bench" -test.count 1 \
    -test.benchtime "$BENCHTIME" -test.benchmem >>"$out/peers.txt"
  "$tmp/peers.test" -test.run '^$' -test.bench "$long_bench" -test.count 1 \
    -test.benchtime "$LONG_BENCHTIME" -test.benchmem >>"$out/long.txt"
done
meta "load after" "$(loadavg)"
meta "load at each round's start" "$(cut -d' ' -f4 "$out/rounds.txt" | paste -sd' ')"
meta "cpu (go test)" "$(sed -n 's/^cpu: *//p' "$out/core.txt" | head -1 | sed 's/ *$//')"

# quoted prints its arguments as a shell would read them back, quoting
# those with other than plain characters.
quoted() {
  local a words=()
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,+-]+$ ]]; then words+=("$a"); else words+=("'$a'"); fi
  done
  printf '%s' "${words[*]}"
}

# tabulate NAME FILE ARGS... writes benchstat's CSV of FILE to NAME.csv and
# its text form to benchstat.txt.
tabulate() {
  local name=$1 file=$2
  shift 2
  cmd "benchstat -format csv $(quoted "$@") $file > $name.csv"
  benchstat -format csv "$@" "$out/$file" >"$out/$name.csv" 2>>"$out/benchstat-warnings.txt"
  {
    printf '### %s: benchstat %s %s\n\n' "$name" "$(quoted "$@")" "$file"
    benchstat "$@" "$out/$file" 2>/dev/null
    printf '\n'
  } >>"$out/benchstat.txt"
}
say "benchstat"
cmd "# benchstat is golang.org/x/perf/cmd/benchstat@$BENCHSTAT_VERSION"
tabulate core-parse core.txt -filter .name:ParseCorpus -col /op -row .name
tabulate core-allowed core.txt -filter '.name:(Allowed OR AllowedFloor OR AllowedMatchFloor)' -col .name -row /file
tabulate core-hostile hostile.txt -filter .name:Hostile -col /path -row /file
tabulate peers-allowed peers.txt -filter .name:Allowed -col /lib -row /file
tabulate peers-parse peers.txt -filter .name:Parse -col /lib -row /file
tabulate peers-size peers.txt -filter .name:Size -col /lib -row /file
tabulate long-worst long.txt -filter .name:WorstCase -col /q -row /rules,/len
tabulate long-adversarial long.txt -filter .name:AdversarialWildcards -col /q -row /shape,/rules,/len

meta "wall time" "$(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"
say "summary"
args=()
if $readme; then
  args=(-readme ../README.md -results RESULTS.md)
fi
go run ./cmd/summarize "${args[@]}" "$out" >"$out/summary.md"
say "done in $((SECONDS - start)) s: $out/summary.md"
