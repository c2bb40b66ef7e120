#!/usr/bin/env bash
# gppc-archive.sh -- the GPPC archive's classic entries beside gridbench's
# fastest optimal solvers, in GPPC's regime, per map (docs/results.md,
# "GPPC entries side by side").  Measurement only: the archive is cloned
# outside this repository and nothing of it is kept here.
#
#   scripts/gppc-archive.sh ARCHIVE OUTDIR ROUNDS SCEN...
#
#   ARCHIVE  a checkout of gppc-dev/algorithm-archive (its classic/2023/*
#            folders are the entries)
#   OUTDIR   where runs go: OUTDIR/build.txt (one line per entry: built or
#            why not), OUTDIR/rR-MAP.csv (the run), OUTDIR/rR-MAP.gtab.csv
#            (`gridbench export --gppc-table`), OUTDIR/verdict.txt
#   ROUNDS   how many rounds (each round runs every map once)
#
# Environment: GB (the gridbench binary, default build/gridbench), SAMPLE
# (queries per scenario file, default 300), REPS (passes, default 5),
# SOLVERS (gridbench's side, default jps,jps+,sg-tl,sg-tl-dt), SUBOPTIMAL
# (entries that do not claim optimality, default "2013-Dao
# gppc_suboptCPD"), EXCLUDE (space-separated MAP:ENTRY pairs left out,
# e.g. "random512-10-0:2019-SGCH-JPD" when an entry's preprocessing of
# that map does not finish), XDG_CACHE_HOME (the per-user cache that holds
# the built entries and every map's index; preprocessing is paid once).
#
# verdict.txt holds, per round and map, gridbench's fastest optimal solver
# by total query time over the fastest entry whose every path was optimal.
set -euo pipefail
[ $# -ge 4 ] || { sed -n 5,8p "$0" >&2; exit 2; }
archive=$1 out=$2 rounds=$3
shift 3
gb=${GB:-build/gridbench}
sample=${SAMPLE:-300} reps=${REPS:-5}
ours=${SOLVERS:-jps,jps+,sg-tl,sg-tl-dt}
subopt=" ${SUBOPTIMAL:-2013-Dao gppc_suboptCPD} "
mkdir -p "$out"

declare -A plugin=()
: >"$out/build.txt"
for dir in "$archive"/classic/2023/*/; do
    e=$(basename "$dir")
    flags=()
    case $subopt in *" $e "*) flags=(--suboptimal) ;; esac
    if so=$("$gb" gppc build "$dir" --name "$e" "${flags[@]}" 2>"$out/build-$e.err"); then
        plugin[$e]=$so
        echo "$e built $so" >>"$out/build.txt"
    else
        echo "$e NOT BUILT: $(tail -1 "$out/build-$e.err")" >>"$out/build.txt"
    fi
done
cat "$out/build.txt" >&2

: >"$out/verdict.txt"
for r in $(seq 1 "$rounds"); do
    for scen in "$@"; do
        m=$(basename "$scen"); m=${m%.scen}; m=${m%.map}
        args=() names=$ours
        for e in "${!plugin[@]}"; do
            case " ${EXCLUDE:-} " in *" $m:$e "*) continue ;; esac
            args+=(--plugin "${plugin[$e]}")
            names+=",$e"
        done
        echo "gppc-archive: round $r/$rounds, $m" >&2
        "$gb" run --regime gppc --reps "$reps" --sample "$sample" -q bheap --quiet \
            "${args[@]}" -s "$names" -o "$out/r$r-$m.csv" "$scen" >"$out/r$r-$m.log" 2>&1
        "$gb" export --gppc-table -o "$out/r$r-$m.gtab.csv" "$out/r$r-$m.csv"
        # columns of --gppc-table: 2 solver, 4 time_source, 9 total_s, 17 suboptimal
        awk -F, -v r="$r" -v m="$m" '
            NR > 1 && $8 == 0 && $17 == 0 {
                if ($4 == "gppc") { if (e == "" || $9 < et) { e = $2; et = $9 } }
                else if (g == "" || $9 < gt) { g = $2; gt = $9 }
            }
            END { printf "round %s %s: %s %.6f s, %s %.6f s, ratio %.3g\n", r, m, g, gt, e, et, gt / et }
        ' "$out/r$r-$m.gtab.csv" | tee -a "$out/verdict.txt" >&2
    done
done
