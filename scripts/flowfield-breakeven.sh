#!/usr/bin/env bash
# scripts/flowfield-breakeven.sh -- the break-even number of agents per goal
# of a flow field against A* per agent, per map.
#
# For each map: `gridbench gen --map MAP --goals G --per-goal K` draws a
# many-to-one scenario (K starts per goal, grouped by goal); one
# `gridbench run --reps R` runs astar-octile, flowfield and flowfield-cold
# side by side on it (every path validated, the flow field checked optimal
# against Dijkstra); `gridbench summary` gives the per-solver medians.
#   t_astar   median time_ns of astar-octile (one agent)
#   t_extract median time_ns of flowfield: the warm reps reuse the field of
#             the query's goal, so this is the extraction (walk) alone
#   t_build   median time_ns of flowfield-cold (build + extraction on
#             every rep) minus t_extract
#   K*        t_build / (t_astar - t_extract): with K agents per goal the
#             field wins when K > K* ("never" when t_astar <= t_extract)
#   K*_exp    the same in expansions, a load-independent figure: the build
#             expands the goal's whole component (expanded of flowfield),
#             the extraction expands nothing: build_exp / astar_exp_mean
# The machine is shared: compare the figures of one run, and prefer K*_exp
# for stable numbers.
#
#   scripts/flowfield-breakeven.sh [--goals G] [--per-goal K] [--reps R]
#       [--seed S] [--queue Q] [--out DIR] [--bin PATH] MAP...
# --queue: the priority queue of all three solvers (default bheap; the
# field's Dijkstra is fastest on bucket).
set -euo pipefail

goals=10 per_goal=50 reps=5 seed=1 out= bin=./gridbench queue=bheap
while [ $# -gt 0 ]; do
    case $1 in
    --goals) goals=$2; shift 2 ;;
    --per-goal) per_goal=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --queue) queue=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    -*) echo "flowfield-breakeven.sh: unknown option '$1'" >&2; exit 64 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "flowfield-breakeven.sh: expected at least one MAP" >&2; exit 64; }
keep=1
if [ -z "$out" ]; then out=$(mktemp -d); keep=0; fi
mkdir -p "$out"

printf 'map\tgoals\tper_goal\tt_astar_ns\tt_extract_ns\tt_build_ns\tK*\tastar_exp_mean\tbuild_exp\tK*_exp\n'
for map in "$@"; do
    stem=$(basename "$map" .map)
    scen="$out/$stem-m2o-${goals}x$per_goal-$seed.scen"
    "$bin" gen --map "$map" --goals "$goals" --per-goal "$per_goal" --seed "$seed" --out "$out" 2>/dev/null
    "$bin" run --quiet --no-oracle-cache --reps "$reps" -q "$queue" \
        -s astar-octile,flowfield,flowfield-cold \
        "$scen" -o "$out/$stem.csv" >/dev/null 2>&1 || {
        echo "flowfield-breakeven.sh: $map: the run reported failures (see $out/$stem.csv)" >&2
        keep=1; continue; }
    "$bin" summary "$out/$stem.csv" > "$out/$stem.summary.csv"
    awk -F, -v map="$stem" -v G="$goals" -v K="$per_goal" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { t[$(col["solver"])] = $(col["time_median_ns"]); e[$(col["solver"])] = $(col["expanded_mean"]) }
        END {
            ta = t["astar-octile"]; tx = t["flowfield"]; tb = t["flowfield-cold"] - tx
            ks = ta > tx ? sprintf("%.1f", tb / (ta - tx)) : "never"
            printf "%s\t%d\t%d\t%.0f\t%.0f\t%.0f\t%s\t%.1f\t%.0f\t%.1f\n", map, G, K, ta, tx, tb, ks,
                   e["astar-octile"], e["flowfield"], e["flowfield"] / e["astar-octile"]
        }' "$out/$stem.summary.csv"
done
[ "$keep" = 1 ] || rm -rf "$out"
