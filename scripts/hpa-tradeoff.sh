#!/usr/bin/env bash
# scripts/hpa-tradeoff.sh -- HPA*'s trade: suboptimality against speed-up
# over A*, per map, measured side by side in one run.
#
# One `gridbench run` of astar-octile and hpa:c=C (each C of --clusters)
# per scenario (--sample N evenly spaced queries); every HPA* path is
# validated and its cost divided by Dijkstra's optimum (the subopt column
# of rows with guarantee none).  Prints per map and cluster size:
#   subopt_mean, subopt_max   from `gridbench summary`
#   speedup_vs_astar          median time of astar-octile / median time of
#                             hpa (same queries, same run)
#   exp_ratio                 mean expansions of A* / of hpa (all of hpa's
#                             searches: insertion, abstract, refinement)
#   prep_ms, mem_bytes        the abstract graph's build time and bytes
# and writes OUT/tradeoff.tsv (one line per query: map, solver, subopt,
# per-query speed-up over A*) for plots/hpa_tradeoff.gp (box plots of both
# per map), rendered to OUT/hpa_tradeoff.svg when gnuplot is there.
#
#   scripts/hpa-tradeoff.sh [--clusters 8,16,32] [--sample N] [--reps R]
#       [--out DIR] [--bin PATH] SCEN...
set -euo pipefail

clusters=16 sample=300 reps=3 out= bin=./gridbench
while [ $# -gt 0 ]; do
    case $1 in
    --clusters) clusters=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "hpa-tradeoff.sh: unknown option '$1'" >&2; exit 64 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "hpa-tradeoff.sh: expected at least one SCEN" >&2; exit 64; }
out=${out:-results/hpa-tradeoff}
mkdir -p "$out"
solvers=astar-octile
for c in ${clusters//,/ }; do solvers="$solvers,hpa:c=$c"; done

: > "$out/tradeoff.tsv"
printf 'map\tsolver\tn\tsubopt_mean\tsubopt_max\tspeedup_vs_astar\texp_ratio\tprep_ms\tmem_bytes\n'
for scen in "$@"; do
    stem=$(basename "$scen" .scen)
    "$bin" run --quiet --reps "$reps" --sample "$sample" -s "$solvers" "$scen" \
        -o "$out/$stem.csv" >/dev/null 2>&1 || echo "hpa-tradeoff.sh: $scen: failures in the run" >&2
    "$bin" summary "$out/$stem.csv" > "$out/$stem.summary.csv"
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { s = $(col["solver"]); t[s] = $(col["time_median_ns"]); e[s] = $(col["expanded_mean"])
          n[s] = $(col["n"]); sm[s] = $(col["subopt_mean"]); sx[s] = $(col["subopt_max"])
          p[s] = $(col["prep_ns_max"]); m[s] = $(col["mem_bytes_max"]); map = $(col["map"])
          if (s != "astar-octile") order[++k] = s }
        END { for (i = 1; i <= k; i++) { s = order[i]
              printf "%s\t%s\t%d\t%s\t%s\t%.2f\t%.2f\t%.2f\t%s\n", map, s, n[s], sm[s], sx[s],
                     t["astar-octile"] / t[s], e["astar-octile"] / e[s], p[s] / 1e6, m[s] } }
        ' "$out/$stem.summary.csv"
    # per query: subopt and speed-up over A* (time of A* / time of hpa, same query)
    awk -F, -v OFS='\t' '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $(col["status"]) != "ok" { next }
        { key = $(col["scen"]) SUBSEP $(col["line"]); s = $(col["solver"])
          if (s == "astar-octile") ta[key] = $(col["time_ns"])
          else { th[key, s] = $(col["time_ns"]); so[key, s] = $(col["subopt"]); seen[s] = 1
                 keys[key] = $(col["map"]) } }
        END { for (key in keys) for (s in seen)
                  if ((key, s) in th && th[key, s] > 0 && key in ta)
                      print keys[key], s, so[key, s], ta[key] / th[key, s] }
        ' "$out/$stem.csv" | sort >> "$out/tradeoff.tsv"
done
if command -v gnuplot >/dev/null 2>&1 && [ -s "$out/tradeoff.tsv" ]; then
    here=$(cd "$(dirname "$0")/.." && pwd)
    gnuplot -e "data='$out/tradeoff.tsv'; out='$out/hpa_tradeoff.svg'; plotdir='$here/plots'" \
        "$here/plots/hpa_tradeoff.gp" && echo "hpa-tradeoff.sh: wrote $out/hpa_tradeoff.svg" >&2
fi
