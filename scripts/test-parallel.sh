#!/usr/bin/env bash
# test-parallel.sh -- `make test-parallel`: scripts/parallel.sh on this
# machine (GNU parallel, --sshlogin ':'), checked against one unsharded run.
#
# Checks, each counted as passed or failed (closing line "N passed, N failed"):
#   1. 3 shards through parallel.sh: exit 0, the shards are real slices (each
#      smaller than the whole, their rows adding up to the merged CSV's), and
#      the merged CSV equals the unsharded run, timing columns dropped
#      (scripts/csv-drop-timing.pl);
#   2. the same with 4 shards and an explicit login '2/:' (two at a time);
#   3. --resume after a shard's files were lost: only that shard runs again
#      (the others say "done before, kept"), and the merge is again equal;
#   4. a shard of another plan in the folder (same N, other options): the
#      merge is refused (exit 65) and no merged CSV is written.
#
# Environment: GRIDBENCH (default ./build/gridbench), GB_PARALLEL_RUN_ARGS
# (default "-s dijkstra,astar-octile,jps -q bheap,bucket").  Installs GNU
# parallel through scripts/deps.sh when it is missing.
# Exit status: 0 all passed; 1 a check failed; 64 no binary.
set -uo pipefail

PROG=test-parallel
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GB=$(readlink -f "${GRIDBENCH:-$ROOT/build/gridbench}")
RUN_ARGS=${GB_PARALLEL_RUN_ARGS:--s dijkstra,astar-octile,jps -q bheap,bucket}
[ -x "$GB" ] || { echo "$PROG: no gridbench binary at $GB (run make first, or set GRIDBENCH)" >&2; exit 64; }
command -v parallel >/dev/null || "$ROOT/scripts/deps.sh" parallel || exit 1

T=$(mktemp -d "${TMPDIR:-/tmp}/gridbench-parallel.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache     # a private oracle cache
cd "$ROOT" || exit 1
SCENS=(datasets/default/*.scen)
# shellcheck disable=SC2206
RUN=($RUN_ARGS)
PASSED=0 FAILED=0
ok() { PASSED=$((PASSED + 1)); echo "$PROG: ok: $*"; }
bad() { FAILED=$((FAILED + 1)); echo "$PROG: FAILED: $*" >&2; }

"$GB" run "${RUN[@]}" --quiet --out "$T/ref.csv" "${SCENS[@]}" 2>"$T/ref.log" \
    || { cat "$T/ref.log" >&2; echo "$PROG: the unsharded reference run failed" >&2; exit 1; }
"$ROOT/scripts/csv-drop-timing.pl" "$T/ref.csv" > "$T/ref.untimed" || exit 1
TOTAL=$(($(wc -l <"$T/ref.csv") - 1))

# same_as_ref NAME DIR N: the shards in DIR are slices, DIR/merged.csv == ref
same_as_ref() {
    local name=$1 dir=$2 n=$3 i rows sum=0
    for ((i = 0; i < n; i++)); do
        rows=$(($(wc -l <"$dir/shard-$i-of-$n.csv") - 1)) || return 1
        if [ "$rows" -ge "$TOTAL" ]; then bad "$name: shard $i/$n has $rows rows of $TOTAL: not a slice"; return 1; fi
        sum=$((sum + rows))
    done
    if [ "$sum" -ne "$TOTAL" ]; then bad "$name: the shards hold $sum rows, the unsharded run $TOTAL"; return 1; fi
    "$ROOT/scripts/csv-drop-timing.pl" "$dir/merged.csv" > "$dir/merged.untimed" || { bad "$name: unreadable merge"; return 1; }
    if ! cmp -s "$T/ref.untimed" "$dir/merged.untimed"; then
        diff "$T/ref.untimed" "$dir/merged.untimed" | head -n 10 >&2
        bad "$name: the merged CSV differs from the unsharded run (timing columns aside)"
        return 1
    fi
    ok "$name: $n shards merged == unsharded run ($TOTAL rows, timing columns aside)"
}

# 1. three shards, default login ':'
if "$ROOT/scripts/parallel.sh" -n 3 -d "$T/p3" --gridbench "$GB" -- "${RUN[@]}" --quiet "${SCENS[@]}" \
        >"$T/p3.log" 2>&1; then
    same_as_ref "3 shards" "$T/p3" 3
else
    cat "$T/p3.log" >&2; bad "3 shards: parallel.sh exited $?"
fi

# 2. four shards, two at a time on an explicit login
if "$ROOT/scripts/parallel.sh" -n 4 -S 2/: -d "$T/p4" --gridbench "$GB" -- "${RUN[@]}" --quiet "${SCENS[@]}" \
        >"$T/p4.log" 2>&1; then
    same_as_ref "4 shards on 2/:" "$T/p4" 4
else
    cat "$T/p4.log" >&2; bad "4 shards on 2/:: parallel.sh exited $?"
fi

# 3. --resume reruns only the shard whose files are gone
if [ -f "$T/p3/merged.csv" ]; then
    rm -f "$T/p3/shard-1-of-3.csv" "$T/p3/shard-1-of-3.csv.shard" "$T/p3/shard-1-of-3.rc" "$T/p3/merged.csv"
    if "$ROOT/scripts/parallel.sh" --resume -n 3 -d "$T/p3" --gridbench "$GB" -- "${RUN[@]}" --quiet "${SCENS[@]}" \
            >"$T/p3r.log" 2>&1; then
        kept=$(grep -c 'done before, kept' "$T/p3r.log")
        if [ "$kept" -eq 2 ] && grep -q '^shard 1/3: gridbench run exited 0' "$T/p3r.log"; then
            same_as_ref "--resume (2 shards kept, 1 rerun)" "$T/p3" 3
        else
            cat "$T/p3r.log" >&2; bad "--resume: expected 2 shards kept and shard 1/3 rerun"
        fi
    else
        cat "$T/p3r.log" >&2; bad "--resume: parallel.sh exited $?"
    fi
else
    bad "--resume: not tried (check 1 left no merged CSV)"
fi

# 4. a shard of another plan (other solvers) in place of shard 2/4: refused
mkdir -p "$T/mix"
if [ -f "$T/p4/shard-0-of-4.csv" ]; then
    "$GB" run -s dijkstra -q bheap --quiet --shard 2/4 --out "$T/mix/shard-2-of-4.csv" "${SCENS[@]}" 2>/dev/null
    rc=0
    "$GB" merge --out "$T/mix/merged.csv" "$T/p4/shard-0-of-4.csv" "$T/p4/shard-1-of-4.csv" \
        "$T/mix/shard-2-of-4.csv" "$T/p4/shard-3-of-4.csv" 2>"$T/mix.log" || rc=$?
    if [ "$rc" -eq 65 ] && [ ! -e "$T/mix/merged.csv" ]; then
        ok "a shard of another plan: merge refused (exit 65): $(head -n 1 "$T/mix.log")"
    else
        cat "$T/mix.log" >&2; bad "a shard of another plan: expected merge exit 65 and no CSV, got exit $rc"
    fi
else
    bad "another plan: not tried (check 2 left no shards)"
fi

echo "$PROG: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
