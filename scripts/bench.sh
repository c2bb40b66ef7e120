#!/usr/bin/env bash
# scripts/bench.sh -- speed figures per solver x queue x map, measured side
# by side in one run (this machine is shared and noisy: compare ratios, not
# absolute times across runs).
#
# Prints, per map, solver and queue: queries, median ns per query, mean
# expansions, expansions per second (sum of expansions / sum of median
# times) and the speed ratio against the lazy binary heap for the same
# solver.  With --callgrind it also counts instructions per expansion of
# the search function itself (valgrind --tool=callgrind, inclusive cost of
# the solver's instantiated function / expansions): a stable figure that
# does not depend on the machine's load.
#
#   make bench                                   shared 512x512 maps, or the default data
#   make bench BENCH_ARGS="--solvers astar-octile --queues all --callgrind"
#   make bench-jps                               jps per query on its four maps (--jps)
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/bench.sh [OPTIONS] [SCEN...]

  --solvers LIST   comma-separated (default dijkstra,astar-octile,jps)
  --queues LIST    comma-separated or all (default all)
  --reps N         timed repetitions per query (default 3; 20 with --jps)
  --count N        about N evenly spaced queries per scenario (default 300, 0 = all)
  --callgrind      also count instructions per expansion (slow: 100 queries)
  --out DIR        keep the CSVs here (default: a temp dir, removed)
  --bin PATH       gridbench binary (default ./gridbench)
  --jps            jps alone on bheap (the default queue), per query: the
                   mean and the median over the queries of time_ns (each
                   the median of the warm reps), mean expansions and
                   scanned cells; with --callgrind also instructions per
                   query of the search function (jps_bheap, inclusive:
                   jumps, queue, path; one rep, --count queries).  SCEN
                   defaults to AR0011SR, Berlin_0_256, divideandconquer
                   and den312d
  --bounds         Dijkstra on the timing-bound queues bound-fifo and
                   bound-dial (solvers/gb_pq_bound.h: NOT exact) side by
                   side with bucket and bheap, using build-bounds/gridbench
                   (`make bench-bounds` builds it); their rows count
                   whatever their status, since their order is not exact

SCEN defaults to the shared 512x512 maps (random512-10-0, AR0011SR,
maze512-4-0) plus Berlin_0_256 when ../shared/movingai exists, else
datasets/default/*.scen.
EOF
}

solvers=dijkstra,astar-octile,jps queues=all reps="" count=300 callgrind=0 out="" bin=./gridbench
bounds=0 jps=0
scens=()
while [ $# -gt 0 ]; do
    case "$1" in
        --solvers) solvers=$2; shift 2 ;;
        --queues) queues=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --count) count=$2; shift 2 ;;
        --callgrind) callgrind=1; shift ;;
        --out) out=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --jps) jps=1; shift ;;
        --bounds) bounds=1; solvers=dijkstra; queues=bound-fifo,bound-dial,bucket,bheap
                  bin=build-bounds/gridbench; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "bench.sh: unknown option $1" >&2; usage >&2; exit 64 ;;
        *) scens+=("$1"); shift ;;
    esac
done
S=${GB_SHARED:-../shared/movingai}
if [ "$jps" = 1 ] && [ ${#scens[@]} -eq 0 ]; then
    if [ -d "$S" ]; then
        scens=("$S/bgmaps/AR0011SR.map.scen" "$S/street/Berlin_0_256.map.scen"
               "$S/wc3/divideandconquer.map.scen" "$S/mapf/den312d-even-10.scen")
    else
        scens=(datasets/default/*.scen)
    fi
fi
if [ ${#scens[@]} -eq 0 ]; then
    if [ -d "$S" ]; then
        scens=("$S/random/random512-10-0.map.scen" "$S/bgmaps/AR0011SR.map.scen"
               "$S/mazes/maze512-4-0.map.scen" "$S/street/Berlin_0_256.map.scen")
    else
        scens=(datasets/default/*.scen)
    fi
fi
dir=${out:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$out" ] || trap 'rm -rf "$dir"' EXIT

if [ "$jps" = 1 ]; then
    reps=${reps:-20}
    echo "# $("$bin" env | tr -d '\n' | sed 's/  */ /g' | cut -c1-300)" >&2
    printf '%-18s %6s %5s %10s %10s %9s %12s %12s\n' map n reps mean_ns median_ns mean_exp mean_scanned Ir_per_query
    for sc in "${scens[@]}"; do
        name=$(basename "$sc" .scen); name=${name%.map}
        # exit 1: some row is not ok (scen_mismatch counts): the awk below looks
        "$bin" run --quiet --solver jps --queue bheap --reps "$reps" --sample "$count" \
            --out "$dir/$name.csv" "$sc" 2>"$dir/$name.err" || [ $? -eq 1 ] \
            || { cat "$dir/$name.err" >&2; exit 1; }
        ir=-
        if [ "$callgrind" = 1 ]; then
            command -v valgrind >/dev/null || { echo "bench.sh: --callgrind needs valgrind (apt-get install valgrind)" >&2; exit 69; }
            # one rep per query: the search function's inclusive cost
            # (jps_bheap: the jumps, the queue, the path) / the queries
            # (the Dijkstra oracle of an uncached query runs bf_bucket_zero)
            valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$bin" run --quiet \
                --solver jps --queue bheap --sample "$count" --out "$dir/cg.csv" "$sc" 2>/dev/null \
                || [ $? -eq 1 ]
            tot=$(callgrind_annotate --inclusive=yes "$dir/cg.out" 2>/dev/null \
                  | awk '/[:]jps_bheap( |$)/ { gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0 }
                         END { printf "%.0f", m }')
            nq=$(($(wc -l <"$dir/cg.csv") - 1))
            [ "$nq" -gt 0 ] && [ "$tot" -gt 0 ] && ir=$((tot / nq))
        fi
        awk -F, -v map="$name" -v reps="$reps" -v ir="$ir" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            # the queries jps solved at Dijkstra'"'"'s optimum (scen_mismatch: only
            # the scenario file disagrees, as on divideandconquer)
            $col["status"] != "ok" && !($col["status"] == "scen_mismatch" && $col["path_len"] > 0) { next }
            { n++; t[n] = $col["time_ns"] + 0; ts += t[n]; e += $col["expanded"]; sc += $col["scanned"] }
            END {
              if (!n) { printf "%-18s %6d (no ok rows)\n", map, 0; exit }
              # median over the queries (sort: a few hundred values)
              for (a = 2; a <= n; a++) { v = t[a]; b = a - 1
                while (b >= 1 && t[b] > v) { t[b + 1] = t[b]; b-- } t[b + 1] = v }
              med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
              printf "%-18s %6d %5d %10.0f %10.0f %9.1f %12.1f %12s\n", map, n, reps, ts / n, med,
                     e / n, sc / n, ir
            }' "$dir/$name.csv"
    done
    exit 0
fi
reps=${reps:-3}
echo "# $("$bin" env | tr -d '\n' | sed 's/  */ /g' | cut -c1-300)" >&2
printf '%-18s %-22s %-9s %6s %12s %10s %9s %8s\n' map solver queue n median_ns mean_exp Mexp_s vs_bheap
for sc in "${scens[@]}"; do
    name=$(basename "$sc" .scen); name=${name%.map}
    # exit 1 = some row is not ok: expected of the inexact bound queues
    rc=0
    "$bin" run --quiet --solver "$solvers" --queue "$queues" --reps "$reps" --sample "$count" \
        --out "$dir/$name.csv" "$sc" 2>"$dir/$name.err" || rc=$?
    if [ "$rc" -ne 0 ] && { [ "$bounds" = 0 ] || [ "$rc" -ne 1 ]; }; then
        cat "$dir/$name.err" >&2; exit 1
    fi
    # median per (solver, queue) of time_ns; expansions/s from sums
    awk -F, -v map="$name" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["status"] != "ok" && $col["queue"] !~ /^bound-/ { next }
        { k = $col["solver"] SUBSEP $col["queue"]
          n[k]++; t[k, n[k]] = $col["time_ns"]; ts[k] += $col["time_ns"]; e[k] += $col["expanded"]
          if (!(k in seen)) { seen[k] = 1; order[++no] = k } }
        END {
          for (j = 1; j <= no; j++) {
            k = order[j]; m = n[k]
            # insertion sort of this group (small groups)
            for (a = 2; a <= m; a++) { v = t[k, a]; b = a - 1
              while (b >= 1 && t[k, b] > v) { t[k, b + 1] = t[k, b]; b-- } t[k, b + 1] = v }
            med[k] = (m % 2) ? t[k, (m + 1) / 2] : (t[k, m / 2] + t[k, m / 2 + 1]) / 2
            split(k, sq, SUBSEP); if (sq[2] == "bheap" || sq[2] == "fifo") base[sq[1]] = ts[k]
          }
          for (j = 1; j <= no; j++) {
            k = order[j]; split(k, sq, SUBSEP)
            r = (sq[1] in base) ? sprintf("%.2fx", base[sq[1]] / ts[k]) : "-"
            printf "%-18s %-22s %-9s %6d %12.0f %10.1f %9.2f %8s\n", map, sq[1], sq[2], n[k], med[k],
                   e[k] / n[k], e[k] / ts[k] * 1000, r
          }
        }' "$dir/$name.csv"
done

if [ "$callgrind" = 1 ]; then
    command -v valgrind >/dev/null || { echo "bench.sh: --callgrind needs valgrind (apt-get install valgrind)" >&2; exit 69; }
    echo
    printf '%-18s %-22s %-9s %14s %12s %10s\n' map solver queue instructions expansions Ir_per_exp
    IFS=, read -r -a sl <<<"$solvers"
    # every queue of this build, as the registry lists it
    if [ "$queues" = all ]; then mapfile -t ql < <("$bin" list | awk -F'\t' '$1 == "queue" { print $2 }')
    else IFS=, read -r -a ql <<<"$queues"; fi
    for sc in "${scens[@]}"; do
        name=$(basename "$sc" .scen); name=${name%.map}
        for s in "${sl[@]}"; do
            for q in "${ql[@]}"; do
                qshow=$q
                case "$s" in        # their own heap: one row, whatever --queues says
                    sg|sg-tl|sg-tl-dt|sg-ch) [ "$q" = "${ql[0]}" ] || continue; qshow=own-heap ;;
                esac
                # exit 1 (a row not ok) still counts: the bound queues are not exact.
                # A first run without valgrind fills an oracle cache, so the
                # counted run answers the Dijkstra check from it and the
                # instructions are the solver's alone.
                "$bin" run --quiet --solver "$s" --queue "$q" --sample 100 \
                    --oracle-cache "$dir/oc" --out "$dir/cg.csv" "$sc" 2>/dev/null || [ $? -eq 1 ]
                valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$bin" run --quiet \
                    --solver "$s" --queue "$q" --sample 100 --oracle-cache "$dir/oc" \
                    --out "$dir/cg.csv" "$sc" 2>/dev/null || [ $? -eq 1 ]
                # the instantiated search function: bf_<queue>_<heuristic> /
                # bd_<queue>_<heuristic>, else <solver>_<queue> for the
                # one-heuristic families (jps_bheap, jpsplus_bucket: '+' is
                # spelled 'plus', other punctuation '_')
                qt=${q//-/_}
                case "$s" in
                    dijkstra) fn="bf_${qt}_zero" ;;
                    astar-*) fn="bf_${qt}_${s#astar-}" ;;
                    bidijkstra) fn="bd_${qt}_zero" ;;
                    biastar-*) fn="bd_${qt}_${s#biastar-}" ;;
                    *[:=]*) fn="" ;;
                    # the subgoal families search with their own heap
                    # (queue column own-heap) whatever --queue says: one
                    # search function for both
                    sg|sg-tl|sg-tl-dt) fn="sg_search" ;;
                    sg-ch) fn="sgch_search" ;;
                    *) fn="$(printf '%s' "$s" | sed 's/+/plus/g; s/[^A-Za-z0-9]/_/g')_${qt}" ;;
                esac
                [ -n "$fn" ] || continue
                # the function's inclusive cost: its largest line (callgrind
                # also lists the parts inlined from other files separately)
                ir=$(callgrind_annotate --inclusive=yes "$dir/cg.out" 2>/dev/null \
                     | grep -E "[:]${fn}( |\$)" | awk '{gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0}
                                                     END { if (m) printf "%.0f\n", m }')
                ex=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "expanded") c = i; next } { s += $c } END { printf "%.0f\n", s }' "$dir/cg.csv")
                printf '%-18s %-22s %-9s %14s %12s %10s\n' "$name" "$s" "$qshow" "${ir:-?}" "$ex" \
                    "$( [ -n "$ir" ] && [ "$ex" -gt 0 ] && echo $((ir / ex)) || echo '?')"
            done
        done
    done
fi
