#!/usr/bin/env bash
# run-tests.sh -- run the Criterion test binary and say what happens:
#
#   scripts/run-tests.sh BIN JOBS [CRITERION ARGS...]
#
# While it runs: a progress line every 25 tests (tests done of the total
# that `BIN --list` announces, or that a --filter selects of it, failures
# so far, seconds).  Failures are shown as
# Criterion prints them (the [FAIL] line and its assertion messages).  At
# the end: Criterion's own summary line, one line per suite (passed,
# failed, skipped, the sum of its tests' times), every skipped test with
# its reason, and a closing line "tests: N passed, N failed, N skipped".
# The exit status is Criterion's.
set -uo pipefail
bin=$1
jobs=$2
shift 2
# The total: every suite/test name of `BIN --list` that the --filter
# pattern selects (all without one), matched here as Criterion matches it
# (a glob with extglob's @(a|b)): --list itself ignores --filter.  A
# suite's line is "NAME: N tests"; a test's line starts with tree drawing,
# "├── " or, under LC_ALL=C, "|-- " and "`-- ".
filter='*'
prev=
for a in "$@"; do
    case $a in --filter=*) filter=${a#--filter=} ;; esac
    [ "$prev" = --filter ] && filter=$a
    prev=$a
done
shopt -s extglob
total=0
while IFS= read -r name; do
    # shellcheck disable=SC2053  # the pattern is meant to match as a glob
    [[ $name == $filter ]] && total=$((total + 1))
done < <("$bin" --list 2>/dev/null | awk '
    /^[A-Za-z0-9_]+: [0-9]+ tests?$/ { suite = $1; sub(/:$/, "", suite); next }
    { t = $0; sub(/^[^A-Za-z0-9_]+/, "", t); if (t != "" && suite != "") print suite "/" t }')
echo "test: $bin: $total tests, $jobs at a time"
"$bin" --jobs="$jobs" --verbose "$@" 2>&1 | awk -v total="$total" -v t0="$(date +%s)" '
function suite_of(s,   i) { i = index(s, "::"); return i ? substr(s, 1, i - 1) : s }
function secs(s,   m) { return match(s, /\(([0-9.]+)s\)$/) ? substr(s, RSTART + 1, RLENGTH - 3) + 0 : 0 }
function now(   v, c) { c = "date +%s"; c | getline v; close(c); return v + 0 }
function tick() {
    if (done % 25 == 0) {
        # --list counts a parameterized test once; it runs once per parameter
        if (done <= total) printf "test: %d/%d done, %d failed, %d s\n", done, total, fail, now() - t0
        else printf "test: %d done (%d listed, parameterized tests count once there), %d failed, %d s\n", done, total, fail, now() - t0
        fflush()
    }
}
/Test is disabled$/ { next }
/^\[RUN \]/ { pending = ""; next }
/^\[PASS\]/ { s = suite_of($2); pass[s]++; t[s] += secs($0); seen[s] = 1; done++; tick(); next }
/^\[SKIP\]/ {
    s = suite_of($2); skip[s]++; seen[s] = 1; done++; nskip++
    sub(/^\[SKIP\] /, ""); skipped[nskip] = $0; tick(); next
}
/^\[FAIL\]/ { s = suite_of($2); failc[s]++; t[s] += secs($0); seen[s] = 1; done++; fail++; print; fflush(); tick(); next }
/^\[====\] Synthesis/ { synth = $0; next }
/^\[====\] Running/ { next }
/^\[----\] Criterion v/ { next }
{ print; fflush() }   # assertion messages, crashes, anything else
END {
    n = 0
    for (s in seen) names[++n] = s
    for (i = 2; i <= n; i++) { v = names[i]; for (j = i - 1; j >= 1 && names[j] > v; j--) names[j + 1] = names[j]; names[j + 1] = v }
    for (i = 1; i <= n; i++) {
        s = names[i]
        printf "test: %-18s %3d passed, %d failed, %d skipped, %6.1f s\n", s, pass[s], failc[s], skip[s], t[s]
        np += pass[s]; nf += failc[s]
    }
    for (i = 1; i <= nskip; i++) print "test: skipped " skipped[i]
    printf "test: finished in %d s\n", now() - t0
    if (synth != "") print synth
    printf "tests: %d passed, %d failed, %d skipped\n", np, nf, nskip
}'
exit "${PIPESTATUS[0]}"
