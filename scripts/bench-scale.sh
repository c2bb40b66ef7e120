#!/usr/bin/env bash
# bench-scale.sh -- what --jobs and the oracle cache buy, side by side:
#
#   scripts/bench-scale.sh [--jobs N] [--sample K] [RUN OPTIONS --] SCEN...
#
# Runs the same plan four times, one after the other, and prints wall times
# and ratios:
#   1. --jobs 1, cold oracle cache (a fresh temp folder): the reference;
#   2. --jobs N, cold cache (another fresh folder);
#   3. --jobs 1, warm cache (the folder run 1 filled);
#   4. --jobs N, warm cache.
# Then, per solver/queue pair, the ratio of the median time_ns of run 2 to
# run 1 (the same queries): what running beside other workers does to the
# timings.  Every run's CSV must hold the same rows (timing columns aside),
# or the script fails.  Default: N = 2, solvers dijkstra,astar-octile,jps
# on bheap,bucket, no --sample (every query).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${GB_BIN:-$here/gridbench}
jobs=2
sample=
run_opts=(-s dijkstra,astar-octile,jps -q bheap,bucket)
while [ $# -gt 0 ]; do
    case $1 in
    --jobs) jobs=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
    esac
done
if printf '%s\n' "$@" | grep -qx -- '--'; then   # RUN OPTIONS -- SCEN...
    run_opts=()
    while [ "$1" != -- ]; do run_opts+=("$1"); shift; done
    shift
fi
[ $# -gt 0 ] || { echo "bench-scale.sh: expected scenario files, found none" >&2; exit 64; }
[ -n "$sample" ] && run_opts+=(--sample "$sample")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
secs() { date +%s.%N; }
run() {   # run TAG JOBS CACHE
    local t0 t1 rc=0
    t0=$(secs)
    "$BIN" run --quiet "${run_opts[@]}" --jobs "$2" --oracle-cache "$tmp/$3" --out "$tmp/$1.csv" \
        "${scens[@]}" 2>"$tmp/$1.err" || rc=$?
    t1=$(secs)
    [ "$rc" -le 2 ] || { cat "$tmp/$1.err" >&2; echo "bench-scale.sh: run $1 failed (exit $rc)" >&2; exit 1; }
    echo "$t1 - $t0" | bc
}
scens=("$@")
echo "bench-scale: ${#scens[@]} scenario files, ${run_opts[*]}, jobs 1 vs $jobs; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
t1=$(run j1 1 c1); echo "  jobs 1, cold cache: $t1 s" >&2
t2=$(run jN "$jobs" c2); echo "  jobs $jobs, cold cache: $t2 s" >&2
t3=$(run w1 1 c1); echo "  jobs 1, warm cache: $t3 s" >&2
t4=$(run wN "$jobs" c1); echo "  jobs $jobs, warm cache: $t4 s" >&2
mask() { perl "$here/scripts/csv-drop-timing.pl" "$1"; }
for t in jN w1 wN; do
    cmp -s <(mask "$tmp/j1.csv") <(mask "$tmp/$t.csv") || { echo "bench-scale.sh: run $t wrote other rows than j1" >&2; exit 1; }
done
printf 'bench-scale: jobs %s / jobs 1 (cold) = %.2f; warm / cold (jobs 1) = %.2f; warm / cold (jobs %s) = %.2f\n' \
    "$jobs" "$(echo "$t2 / $t1" | bc -l)" "$(echo "$t3 / $t1" | bc -l)" "$jobs" "$(echo "$t4 / $t2" | bc -l)"
echo "bench-scale: per pair, median time_ns with $jobs workers / with 1 (cold runs, same queries):"
for t in j1 jN; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["solver"] "/" $c["queue"], $c["time_ns"] }' "$tmp/$t.csv" | sort -k1,1 -k2,2n >"$tmp/$t.t"
done
med() { awk '{ v[$1] = v[$1] " " $2 } END { for (k in v) { n = split(v[k], a, " "); print k, a[int((n + 1) / 2)] } }' "$1" | sort; }
join <(med "$tmp/j1.t") <(med "$tmp/jN.t") | awk '{ printf "  %-28s %10.0f ns %10.0f ns  x%.2f\n", $1, $2, $3, $3 / $2 }'
