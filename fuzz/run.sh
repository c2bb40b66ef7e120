#!/usr/bin/env bash
# fuzz/run.sh -- run the libFuzzer targets built by `make fuzz` (see
# fuzz/README.md).  Run from the repository root:
#
#   fuzz/run.sh BUILD_DIR SECONDS TARGET...
#
# For each target t (map, scen, solve, journal, dyn, merge), FUZZ_JOBS of
# them at a time (default 2: each libFuzzer process uses one core):
#   - the corpus is a fresh temporary copy of fuzz/corpus/t (new inputs go
#     there, so the repository corpus never changes); for map and scen the
#     Moving AI files under $GB_SHARED (default ../shared/movingai) are
#     added as a read-only seed directory of symlinks when it exists;
#   - BUILD_DIR/fuzz_t runs for SECONDS seconds with -max_len from
#     FUZZ_MAXLEN_t, the dictionary fuzz/dict/t.dict when present, and
#     artifacts (crash-*, leak-*, timeout-*, oom-*) written to
#     fuzz/regressions/t/, which tests/test_fuzz_regressions.c replays;
#   - the libFuzzer log goes to BUILD_DIR/logs/t.log.
# At the end: one line per target with its executions and new artifacts.
# Exit status 1 when any target crashed or left an artifact, else 0.
#
# Environment: FUZZ_MAXLEN_map/_scen/_solve/_journal/_dyn/_merge, FUZZ_TIMEOUT (seconds per
# input, default 25), FUZZ_ARGS (extra libFuzzer flags), FUZZ_JOBS (targets
# at a time, default 2), GB_SHARED.
set -u

if [ $# -lt 3 ]; then
    echo "usage: fuzz/run.sh BUILD_DIR SECONDS TARGET..." >&2
    exit 64
fi
build=$1
seconds=$2
shift 2
shared=${GB_SHARED:-../shared/movingai}
timeout=${FUZZ_TIMEOUT:-25}
mkdir -p "$build/logs"

# Files libFuzzer writes for a failure (not slow-unit-*, which is no bug).
count_artifacts() {
    ls -A "$1" | grep -cE '^(crash|leak|timeout|oom)-'
}

jobs=${FUZZ_JOBS:-2}
for t in "$@"; do
    case $t in
        map|scen|solve|journal|dyn|merge) ;;
        *) echo "fuzz/run.sh: unknown target '$t'" >&2; exit 64 ;;
    esac
    [ -x "$build/fuzz_$t" ] || { echo "fuzz/run.sh: no fuzzer $build/fuzz_$t (run make fuzz)" >&2; exit 66; }
done
res=$(mktemp -d "${TMPDIR:-/tmp}/gbfuzz-res.XXXXXX")

# fuzz_one T: run target T; its summary line goes to $res/T.line and, when
# it failed, to $res/T.fail with the end of its log.
fuzz_one() {
    local t=$1
    local bin="$build/fuzz_$t" maxlen ext
    case $t in
        map)   maxlen=${FUZZ_MAXLEN_map:-8192};  ext=.map ;;
        scen)  maxlen=${FUZZ_MAXLEN_scen:-8192}; ext=.scen ;;
        solve) maxlen=${FUZZ_MAXLEN_solve:-160}; ext= ;;
        journal) maxlen=${FUZZ_MAXLEN_journal:-2048}; ext= ;;
        dyn)   maxlen=${FUZZ_MAXLEN_dyn:-2048};  ext= ;;
        merge) maxlen=${FUZZ_MAXLEN_merge:-4096}; ext= ;;
    esac
    local work
    work=$(mktemp -d "${TMPDIR:-/tmp}/gbfuzz-$t.XXXXXX")
    mkdir -p "$work/corpus" "$work/seeds" "fuzz/regressions/$t"
    cp fuzz/corpus/"$t"/* "$work/corpus/" 2>/dev/null
    dirs=("$work/corpus")
    if [ -n "$ext" ] && [ -d "$shared" ]; then
        # read-only seeds: symlinks, nothing is copied
        find "$shared" -name "*$ext" -type f | while read -r f; do
            ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" \
                "$work/seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
        done
        dirs+=("$work/seeds")
    fi
    dict=()
    [ -f "fuzz/dict/$t.dict" ] && dict=("-dict=fuzz/dict/$t.dict")
    before=$(count_artifacts "fuzz/regressions/$t")
    log="$build/logs/$t.log"
    echo "fuzz: $t for ${seconds}s (max_len $maxlen, log $log)"
    "$bin" -max_total_time="$seconds" -max_len="$maxlen" -timeout="$timeout" \
        -rss_limit_mb=2048 -report_slow_units="$timeout" -print_final_stats=1 \
        -artifact_prefix="fuzz/regressions/$t/" "${dict[@]}" ${FUZZ_ARGS:-} \
        "${dirs[@]}" >"$log" 2>&1
    rc=$?
    after=$(count_artifacts "fuzz/regressions/$t")
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    corpus=$(ls "$work/corpus" | wc -l)
    rm -rf "$work"
    new=$((after - before))
    line=$(printf '%-6s %12s executions  corpus %5d  new artifacts %d  exit %d' \
        "$t" "${execs:-?}" "$corpus" "$new" "$rc")
    echo "$line" >"$res/$t.line"
    if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
        { echo "fuzz: $t FAILED; end of $log:"
          grep -E 'gb_fuzz_|ERROR|SUMMARY|artifact|Test unit written' "$log" | tail -n 20; } >"$res/$t.fail"
    fi
}

running=0
for t in "$@"; do
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
    fuzz_one "$t" &
    running=$((running + 1))
done
wait

status=0
echo "fuzz summary (${seconds}s per target, $jobs at a time):"
for t in "$@"; do
    cat "$res/$t.line" 2>/dev/null
    if [ -f "$res/$t.fail" ]; then status=1; cat "$res/$t.fail" >&2; fi
done
rm -rf "$res"
exit $status
