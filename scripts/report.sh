#!/usr/bin/env bash
# report.sh -- the main job of gridbench: run the solver x queue matrix over
# a dataset and write results/<run-id>/ with the per-query CSV, the summary,
# the environment, hyperfine timings, plots, search footprints and a
# report (report.md + report.html).
#
# This script only orchestrates; the work is done by
#   gridbench run        per-query CSV (queries.csv)
#   gridbench summary    statistics (summary.csv) and plot data (data/: also
#                        the faceted plots' panels, queue ratios, trade-off)
#   gridbench env        environment and calibration (env.json)
#   gridbench footprint  search footprint images (footprints/)
#   gridbench heuristics admissibility, consistency, informedness per map
#                        (heuristics-verdicts.csv, heuristics.csv)
#   gridbench trace      one search viewer per map (traces/)
#   gridbench report     report.md / report.html
#   hyperfine            whole-process timings (hyperfine.json)
#   gnuplot              plots/*.gp -> plots/*.png + *.svg
#   check-html.sh        headless Chromium: every image of report.html
#                        loads; screenshot report.png (skipped, with a
#                        note, when chromium is not installed)
#
# Everything is written into results/<run-id>.tmp/, which is renamed to
# results/<run-id>/ only when the report is complete; results/latest then
# points at it.  A failed or interrupted run never leaves a half folder
# under the final name: once `gridbench run` has completed queries (its
# journal queries.csv.partial, or queries.csv), the .tmp folder is kept and
# `--resume` continues it -- the queries already run are kept, the later
# steps are redone -- otherwise the .tmp folder is removed.
#
# Exit status: 0 report written; 1 report written, but a solver returned a
# wrong path (see the report); 2 bad usage; 3 a tool is missing; 4 a step
# failed, nothing published (its message is on stderr; any command that
# fails unexpectedly -- a write to a full disk, a read-only folder -- is
# such a step); 5 another process is writing the same run folder; 6 an
# interrupted run folder is in the way (resume it, or --fresh).
set -Eeuo pipefail

PROG=report.sh
usage() {
    cat <<'EOF'
usage: scripts/report.sh [OPTIONS]

Run solvers x queues over scenario files with `gridbench run`, then write
results/<run-id>/: queries.csv, summary.csv, env.json, hyperfine.json,
plots/ (PNG + SVG), footprints/, report.md, report.html and (with
chromium) report.png, a screenshot of the page.

Input
  --scen FILE           scenario file (repeatable); default: $SCEN if set
                        (whitespace-separated list), else datasets/default/*.scen
  --count N             only the first N queries of each scenario (default all)
  --sample N            of those, about N evenly spaced queries per scenario
                        (every k-th: all path lengths represented; the docs'
                        examples use it rather than --count, which takes only
                        the shortest queries of bucket-sorted files)
  --csv FILE            do not run: take FILE (the CSV of `gridbench run`, or
                        of `gridbench merge` after a sharded run) as queries.csv;
                        give the same --scen files for the checksums in env.json
                        (checked: every row's query must be on its line of one
                        of them, and each of them must have rows)
Execution
  --jobs N              worker processes of `gridbench run` (default 1; env.json
                        records it: parallel workers share caches and memory
                        bandwidth, see docs/timing.md)
Matrix
  --solvers LIST        comma-separated solver names or 'all' (default all)
  --queues LIST         comma-separated queue names or 'all' (default all)
  --model M             movement model (default 8-nocut)
  --terrain-costs C     terrain cost model (gridbench run --terrain-costs, docs/terrain.md);
                        no footprints under it
  --anyangle-model M    centre (default) or gppc (gridbench run --anyangle-model,
                        docs/anyangle.md): with gppc, any-angle solvers are judged
                        against the exact any-angle optimum, and anya can run
  --external CMD        also run an external solver (docs/protocol.md); repeatable
  --external-name NAME  name the --external just before
  --plugin LIB.so       load user solvers (harness/run/gb_user.h); name them in --solvers
  --reps N              timed repetitions per query (default 3)
  --regime NAME         the order of the timed runs (gridbench run --regime):
                        interleaved (default) or gppc (as GPPC times entries;
                        needs --jobs 1); recorded in env.json and every row
hyperfine (whole `gridbench run` processes, one per solver)
  --hyperfine-runs N    runs per command (default 3)
  --hyperfine-warmup N  warm-up runs per command (default 1)
  --hyperfine-solvers L solvers to time (default: the first four of --solvers, or
                        dijkstra,astar-octile,jps,bidijkstra with --solvers all)
  --hyperfine-scen FILE scenario to run (default: the first one)
  --no-hyperfine        skip this step
Footprints (the longest query of each map, one panel per solver)
  --footprint-solvers L solvers to draw (default dijkstra,astar-octile,jps,bidijkstra)
  --no-footprints       skip this step
Search viewers (the longest query of each map, step by step in a browser)
  --trace-solvers L     solvers to trace (default: the footprint solvers)
  --no-traces           skip this step
Heuristics (gridbench heuristics on every map, 4 sampled goals each)
  --no-heuristics       skip this step (also when --heuristics-verdicts is given)
Output
  --out-dir DIR         parent of the run folder (default results)
  --run-id ID           run folder name (default <UTC yyyymmddThhmmZ>-<commit>)
  --fresh               discard an interrupted run folder <run-id>.tmp that
                        holds queries (without it, such a folder is refused)
  --resume              continue an interrupted run (results/<run-id>.tmp, the
                        newest one unless --run-id is given) with the same
                        options: queries already in it are not run again
  --heuristics FILE     the --hist CSV of `gridbench heuristics` (mean h/h* per
                        distance bucket): copied into the run and plotted
  --heuristics-verdicts FILE  the --verdicts CSV of `gridbench heuristics` (one
                        verdict per heuristic: admissible, consistent):
                        copied into the run, shown as a table in the report
  --bin PATH            gridbench binary (default $GB_BIN, else ./gridbench)
  -h, --help            this text

Examples
  make report
  scripts/report.sh --resume          # after an interrupted `make report`
  scripts/report.sh --scen ../shared/movingai/dao/arena.map.scen --solvers astar-octile,jps
  ./gridbench heuristics datasets/default/maze128-2-1.map --hist h.csv --verdicts v.csv
  scripts/report.sh --sample 50 --heuristics h.csv --heuristics-verdicts v.csv
EOF
}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { local code=$1; shift; say "error: $*"; exit "$code"; }
# Any unexpected failure is "not written" (4), never confused with 1.
trap 'say "error: line $LINENO: \`$BASH_COMMAND\` failed; nothing published"; exit 4' ERR

# ---- options -----------------------------------------------------------
SCENS=()
COUNT=0
SAMPLE=0
SOLVERS=all
QUEUES=all
MODEL=8-nocut
TERRAIN=
REPS=3
REGIME=interleaved
AAMODEL=centre
HF_RUNS=3
HF_WARMUP=1
HF_SOLVERS=dijkstra,astar-octile,jps,bidijkstra
HF_SOLVERS_GIVEN=0
HF_SCEN=
HYPERFINE=1
FP_SOLVERS=dijkstra,astar-octile,jps,bidijkstra
FOOTPRINTS=1
TR_SOLVERS=
TRACES=1
HEURISTICS=1
OUT_DIR=results
RUN_ID=
HEUR=
HEUR_V=
RESUME=0
FRESH=0
JOBS=1
CSV_IN=
BIN=${GB_BIN:-./gridbench}
ARGS_GIVEN="$*"

need_arg() { [ "$#" -ge 2 ] || die 2 "$1: expected a value, found none"; }
is_count() { [[ $1 =~ ^[0-9]+$ ]]; }

EXTRA_RUN=()
while [ "$#" -gt 0 ]; do
    case $1 in
    --scen) need_arg "$@"; SCENS+=("$2"); shift 2 ;;
    --count) need_arg "$@"; is_count "$2" || die 2 "--count: expected a non-negative integer, found '$2'"; COUNT=$2; shift 2 ;;
    --sample) need_arg "$@"; is_count "$2" || die 2 "--sample: expected a non-negative integer, found '$2'"; SAMPLE=$2; shift 2 ;;
    --solvers) need_arg "$@"; SOLVERS=$2; shift 2 ;;
    --queues) need_arg "$@"; QUEUES=$2; shift 2 ;;
    --external) need_arg "$@"; EXTRA_RUN+=(--external "$2"); shift 2 ;;
    --external-name) need_arg "$@"; EXTRA_RUN+=(--external-name "$2"); shift 2 ;;
    --plugin) need_arg "$@"; EXTRA_RUN+=(--plugin "$2"); shift 2 ;;
    --model) need_arg "$@"; MODEL=$2; shift 2 ;;
    --terrain-costs) need_arg "$@"; TERRAIN=$2; EXTRA_RUN+=(--terrain-costs "$2"); shift 2 ;;
    --anyangle-model) need_arg "$@"; case $2 in centre|gppc) AAMODEL=$2 ;; *) die 2 "--anyangle-model: expected centre or gppc, found '$2'" ;; esac
        EXTRA_RUN+=(--anyangle-model "$2"); shift 2 ;;
    --reps) need_arg "$@"; is_count "$2" && [ "$2" -ge 1 ] || die 2 "--reps: expected a positive integer, found '$2'"; REPS=$2; shift 2 ;;
    --regime) need_arg "$@"; case $2 in interleaved|gppc) REGIME=$2 ;; *) die 2 "--regime: expected interleaved or gppc, found '$2'" ;; esac; shift 2 ;;
    --hyperfine-runs) need_arg "$@"; is_count "$2" && [ "$2" -ge 2 ] || die 2 "--hyperfine-runs: expected an integer >= 2 (hyperfine's minimum), found '$2'"; HF_RUNS=$2; shift 2 ;;
    --hyperfine-warmup) need_arg "$@"; is_count "$2" || die 2 "--hyperfine-warmup: expected a non-negative integer, found '$2'"; HF_WARMUP=$2; shift 2 ;;
    --hyperfine-solvers) need_arg "$@"; HF_SOLVERS=$2; HF_SOLVERS_GIVEN=1; shift 2 ;;
    --hyperfine-scen) need_arg "$@"; HF_SCEN=$2; shift 2 ;;
    --no-hyperfine) HYPERFINE=0; shift ;;
    --footprint-solvers) need_arg "$@"; FP_SOLVERS=$2; shift 2 ;;
    --no-footprints) FOOTPRINTS=0; shift ;;
    --trace-solvers) need_arg "$@"; TR_SOLVERS=$2; shift 2 ;;
    --no-traces) TRACES=0; shift ;;
    --no-heuristics) HEURISTICS=0; shift ;;
    --out-dir) need_arg "$@"; OUT_DIR=$2; shift 2 ;;
    --run-id) need_arg "$@"; RUN_ID=$2; shift 2 ;;
    --heuristics) need_arg "$@"; HEUR=$2; shift 2 ;;
    --heuristics-verdicts) need_arg "$@"; HEUR_V=$2; shift 2 ;;
    --resume) RESUME=1; shift ;;
    --fresh) FRESH=1; shift ;;
    --jobs) need_arg "$@"; is_count "$2" && [ "$2" -ge 1 ] || die 2 "--jobs: expected a positive integer, found '$2'"; JOBS=$2; shift 2 ;;
    --csv) need_arg "$@"; CSV_IN=$2; shift 2 ;;
    --bin) need_arg "$@"; BIN=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die 2 "expected an option listed above, found '$1'" ;;
    esac
done

if [ "${#SCENS[@]}" -eq 0 ]; then
    if [ -n "${SCEN:-}" ]; then
        read -r -a SCENS <<<"$SCEN"
    else
        SCENS=(datasets/default/*.scen)
    fi
fi
for s in "${SCENS[@]}"; do
    [ -f "$s" ] || die 2 "scenario '$s': expected a readable file, found none"
done
[ -z "$HF_SCEN" ] && HF_SCEN=${SCENS[0]}
[ -z "$CSV_IN" ] || [ -f "$CSV_IN" ] || die 2 "--csv: expected a readable file, found none at '$CSV_IN'"
[ -z "$HEUR" ] || [ -f "$HEUR" ] || die 2 "--heuristics: expected a readable file, found none at '$HEUR'"
if [ -n "$HEUR_V" ]; then
    [ -f "$HEUR_V" ] || die 2 "--heuristics-verdicts: expected a readable file, found none at '$HEUR_V'"
    V_HEADER=map,model,heuristic,weight,goals,verdict,inadmissible_cells,max_over,inconsistent_edges,max_violation,mean_ratio,registry
    [ "$(head -n 1 -- "$HEUR_V" | tr -d '\r')" = "$V_HEADER" ] ||
        die 2 "--heuristics-verdicts: expected the --verdicts CSV of \`gridbench heuristics\` (header $V_HEADER) in '$HEUR_V'"
fi
if [ -n "$RUN_ID" ] && ! [[ $RUN_ID =~ ^[A-Za-z0-9._-]+$ && $RUN_ID != .* ]]; then
    die 2 "--run-id: expected letters, digits, '.', '_' or '-' (not starting with '.'), found '$RUN_ID'"
fi

# ---- tools -------------------------------------------------------------
[ -x "$BIN" ] || die 3 "gridbench binary '$BIN' not found or not executable: run \`make\` first (or pass --bin)"
for cmd in summary footprint report; do
    "$BIN" "$cmd" --help >/dev/null 2>&1 ||
        die 3 "'$BIN' has no '$cmd' subcommand: rebuild it (\`make\`)"
done
command -v gnuplot >/dev/null 2>&1 ||
    die 3 "gnuplot not found: install the Debian package gnuplot-nox (sudo apt-get install gnuplot-nox)"
if [ "$HYPERFINE" = 1 ]; then
    command -v hyperfine >/dev/null 2>&1 ||
        die 3 "hyperfine not found: install the Debian package hyperfine (sudo apt-get install hyperfine), or pass --no-hyperfine"
fi
command -v sha256sum >/dev/null 2>&1 || die 3 "sha256sum not found: install the Debian package coreutils"
command -v perl >/dev/null 2>&1 || die 3 "perl not found: install the Debian package perl-base"
perl -MText::CSV -e 1 2>/dev/null ||
    die 3 "Text::CSV not found: install the Debian package libtext-csv-perl (sudo apt-get install libtext-csv-perl)"
SCRIPTS=$(dirname -- "$0")   # this script's folder, with its helpers
# --csv: the --scen files are recorded in env.json as the files behind the
# CSV, so they must be the ones it ran on (each row's query on its line)
if [ -n "$CSV_IN" ]; then
    perl "$SCRIPTS/csv-scen-check.pl" "$CSV_IN" "${SCENS[@]}" ||
        die 2 "--csv: expected the --scen files '$CSV_IN' ran on (see above)"
fi

abspath() { readlink -f -- "$1"; }
BIN_ABS=$(abspath "$BIN")
PLOTDIR=$(abspath "$SCRIPTS/../plots")
[ -f "$PLOTDIR/style.gp" ] || die 3 "gnuplot scripts not found in $PLOTDIR"
# chromium is optional: it checks the finished page and takes report.png
CHECK_HTML=$(abspath "$SCRIPTS/check-html.sh")
HAVE_CHROMIUM=0
if [ -n "${GB_CHROMIUM:-}" ]; then if [ -x "$GB_CHROMIUM" ]; then HAVE_CHROMIUM=1; fi
elif command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then HAVE_CHROMIUM=1; fi

# JPS exists only for 8-nocut: leave it out of the default lists elsewhere.
drop_jps() {
    if [ "$MODEL" = 8-nocut ]; then printf '%s' "$1"; return; fi
    printf '%s' "$1" | tr ',' '\n' | { grep -vx jps || true; } | paste -sd, -
}
# hyperfine times the solvers the run has: --solvers (up to four of them)
# unless --hyperfine-solvers chose; the default four when --solvers is all
if [ "$HF_SOLVERS_GIVEN" != 1 ] && [ "$SOLVERS" != all ]; then
    HF_SOLVERS=$(printf '%s' "$SOLVERS" | tr ',' '\n' | head -n 4 | paste -sd, -)
fi
HF_SOLVERS=$(drop_jps "$HF_SOLVERS")
FP_SOLVERS=$(drop_jps "$FP_SOLVERS")
TR_SOLVERS=$(drop_jps "${TR_SOLVERS:-$FP_SOLVERS}")
if [ -n "$TERRAIN" ]; then   # the solvers defined for uniform costs refuse it
    HF_SOLVERS=$(printf '%s' "$HF_SOLVERS" | tr ',' '\n' | { grep -vxE 'jps|jps\+|sg|sg-tl|sg-tl-dt|bfs|theta' || true; } | paste -sd, -)
    FOOTPRINTS=0
    TRACES=0   # the traced searches are those of uniform costs
fi

# ---- run folder --------------------------------------------------------
# the clock: bash's own (bash 5), else date's
T0=${EPOCHSECONDS:-$(date +%s)}
step_t=$T0
NSTEPS=$((7 + HAVE_CHROMIUM))
step() {   # step N "what"
    local now=${EPOCHSECONDS:-$(date +%s)}
    say "[$1/$NSTEPS] $2   (+$((now - T0)) s)"
    step_t=$now
}

COMMIT=$("$BIN" env | sed -n 's/^ *"commit": "\(.*\)",$/\1/p' | tr -c 'A-Za-z0-9._\n-' '_')
[ -n "$COMMIT" ] || COMMIT=unknown
if [ "$RESUME" = 1 ] && [ -z "$RUN_ID" ]; then   # the newest interrupted run
    last=$(ls -1dt -- "$OUT_DIR"/*.tmp 2>/dev/null | head -n 1 || true)
    [ -n "$last" ] || die 2 "--resume: expected an interrupted run folder ($OUT_DIR/<run-id>.tmp), found none"
    RUN_ID=$(basename -- "$last" .tmp)
fi
if [ -z "$RUN_ID" ]; then
    base="$(date -u +%Y%m%dT%H%MZ)-$COMMIT"
    RUN_ID=$base
    n=2
    while [ -e "$OUT_DIR/$RUN_ID" ] || [ -e "$OUT_DIR/$RUN_ID.tmp" ]; do RUN_ID="$base-$n"; n=$((n + 1)); done
fi
FINAL="$OUT_DIR/$RUN_ID"
TMP="$OUT_DIR/$RUN_ID.tmp"
[ -e "$FINAL" ] && die 2 "run folder '$FINAL' exists already: choose another --run-id"
mkdir -p "$OUT_DIR"
# One writer per run folder: a second report.sh with the same run id is
# refused while the first holds the lock (flock, released at exit).
LOCK="$OUT_DIR/$RUN_ID.lock"
exec 9>"$LOCK"
if ! flock -n 9; then
    die 5 "run folder '$FINAL' is being written by another process (lock $LOCK held)"
fi
if [ "$RESUME" = 1 ]; then
    [ -d "$TMP" ] || die 2 "--resume: expected the interrupted run folder '$TMP', found none"
    say "resuming $TMP"
else
    if [ -d "$TMP" ] && { [ -e "$TMP/queries.csv.partial" ] || [ -e "$TMP/queries.csv" ]; } && [ "$FRESH" != 1 ]; then
        exec 9>&-
        rm -f -- "$LOCK"
        die 6 "run folder '$TMP' holds the queries of an interrupted run: continue it with \`scripts/report.sh --resume --run-id $RUN_ID\` and the same options, or discard it with --fresh"
    fi
    rm -rf -- "$TMP"
fi
mkdir -p "$TMP/plots" "$TMP/data"
: >"$TMP/notes.txt"
done_ok=0
cleanup() {
    rm -f -- "$LOCK"
    if [ "$done_ok" != 1 ]; then
        if [ -e "$TMP/queries.csv.partial" ] || [ -e "$TMP/queries.csv" ]; then
            say "incomplete run kept in $TMP: continue it with \`scripts/report.sh --resume --run-id $RUN_ID\` and the same options, or remove it"
        else
            rm -rf -- "$TMP"
            say "incomplete run: removed $TMP"
        fi
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
say "run $RUN_ID -> $FINAL (${#SCENS[@]} scenario files, solvers $SOLVERS, queues $QUEUES, model $MODEL, $REPS reps)"

# JSON helpers: a string literal, and a list of strings.  Every control
# character (a form feed in a file name too) becomes \u00XX: JSON allows
# none raw, and a file name may hold any byte but '/' and NUL.
# Without a control character, bash escapes '"' and '\' itself (this runs
# for every string of env.json, and a process start costs more than all
# the rest); a string with one goes through perl.
json_str() {
    if [[ $1 == *[[:cntrl:]]* ]]; then
        perl -e 'my $s = shift; $s =~ s/(["\\])/\\$1/g;
                 $s =~ s/([\x00-\x1f\x7f])/sprintf("\\u%04x", ord($1))/ge; print "\"$s\""' -- "$1"
    else
        local b='\' q='"' s
        s=${1//"$b"/"$b$b"}
        s=${s//"$q"/"$b$q"}
        printf '"%s"' "$s"
    fi
}
json_list() {   # json_list a b c -> ["a", "b", "c"]
    local out="" x
    for x in "$@"; do out+="${out:+, }$(json_str "$x")"; done
    printf '[%s]' "$out"
}
json_files() {   # json_files FILE... -> [{"path", "sha256", "bytes"}, ...]
    local out="" f
    for f in "$@"; do
        out+="${out:+,
      }{\"path\": $(json_str "$f"), \"sha256\": \"$(sha256sum -- "$f" | cut -d' ' -f1)\", \"bytes\": $(stat -c %s -- "$f")}"
    done
    printf '[\n      %s\n    ]' "$out"
}

# The map of each scenario, as gridbench finds it (the scen's own map
# column next to it, else the scen's name minus .scen).
MAPS=()
for s in "${SCENS[@]}"; do
    m="$(dirname -- "$s")/$(awk 'NR <= 2 && NF >= 9 { print $2; exit }' "$s")"
    [ -f "$m" ] || m=${s%.scen}
    if [ -f "$m" ]; then
        dup=0
        for x in "${MAPS[@]+"${MAPS[@]}"}"; do [ "$x" = "$m" ] && dup=1; done
        [ "$dup" = 1 ] || MAPS+=("$m")
    fi
done

# ---- 1. environment ------------------------------------------------------
if [ "$RESUME" = 1 ] && [ -s "$TMP/env-base.json" ]; then
    step 1 "environment and calibration: kept from the interrupted run"
else
    step 1 "environment and calibration (gridbench env --calibrate)"
    "$BIN" env --calibrate --model "$MODEL" --out "$TMP/env-base.json" "$BIN_ABS" "${SCENS[@]}" \
        "${MAPS[@]+"${MAPS[@]}"}" || die 4 "gridbench env failed"
fi

# ---- 2. the matrix -------------------------------------------------------
step 2 "gridbench run: solvers $SOLVERS x queues $QUEUES over ${#SCENS[@]} scenario files, $REPS reps"
run_args=(run --solver "$SOLVERS" --queue "$QUEUES" --model "$MODEL" --reps "$REPS" --regime "$REGIME" --jobs "$JOBS" --out "$TMP/queries.csv")
[ "$COUNT" -gt 0 ] && run_args+=(--count "$COUNT")
[ "$SAMPLE" -gt 0 ] && run_args+=(--sample "$SAMPLE")
[ ${#EXTRA_RUN[@]} -gt 0 ] && run_args+=("${EXTRA_RUN[@]}")
# --resume: a finished step 2 is kept (its exit status in run_status);
# else gridbench continues its journal queries.csv.partial.
if [ -n "$CSV_IN" ]; then
    cp -- "$CSV_IN" "$TMP/queries.csv.part" && mv -- "$TMP/queries.csv.part" "$TMP/queries.csv" ||
        die 4 "cannot copy $CSV_IN into the run folder"
    # exit status as gridbench run's: 1 when a row has a failure status
    # (`gridbench list` names them, from the one status table)
    fails=$("$BIN" list | awk -F'\t' '$1 == "status" && $3 ~ /^\[failure\]/ { print $2 }' | paste -sd'|')
    run_rc=0
    statuses=$(perl "$SCRIPTS/csv-cut.pl" "$TMP/queries.csv" status) ||
        die 4 "$CSV_IN: expected a gridbench CSV with a status column (csv-cut.pl says why above)"
    awk -F'\t' -v f="^($fails)\$" 'NR > 1 && $1 ~ f { bad = 1 } END { exit bad }' <<<"$statuses" || run_rc=1
    say "queries.csv taken from $CSV_IN (not run here; exit status $run_rc)"
    echo "$run_rc" >"$TMP/run_status"
elif [ "$RESUME" = 1 ] && [ -s "$TMP/run_status" ] && [ -s "$TMP/queries.csv" ]; then
    run_rc=$(cat "$TMP/run_status")
    say "queries.csv was complete (exit status $run_rc): kept"
else
    [ "$RESUME" = 1 ] && run_args+=(--resume)
    run_rc=0
    "$BIN" "${run_args[@]}" "${SCENS[@]}" || run_rc=$?
    case $run_rc in
    0) ;;
    1) say "warning: some solvers returned wrong paths; they are listed in the report" ;;
    *) die 4 "gridbench run failed (exit status $run_rc)" ;;
    esac
    echo "$run_rc" >"$TMP/run_status"
fi

# ---- 3. summary ----------------------------------------------------------
step 3 "gridbench summary -> summary.csv, data/"
"$BIN" summary "$TMP/queries.csv" --out "$TMP/summary.csv" --plot-data "$TMP/data" ||
    die 4 "gridbench summary failed"
# GPPC's per-entry table (total time, first 20 steps, longest call,
# preprocessing, storage, memory, suboptimality, undominated) per map set
"$BIN" export --gppc-table --out "$TMP/gppc.csv" "$TMP/queries.csv" ||
    die 4 "gridbench export --gppc-table failed"
meta() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$TMP/data/meta.tsv"; }
REF_QUEUE=$(meta ref_queue)
mapfile -t RUN_SOLVERS < <(meta solver)
mapfile -t RUN_QUEUES < <(meta queue)

# ---- 4. hyperfine --------------------------------------------------------
HF_JSON=null
if [ "$HYPERFINE" = 1 ] && [ -n "$HF_SOLVERS" ]; then
    step 4 "hyperfine: whole gridbench run processes ($HF_SOLVERS; $HF_RUNS runs, $HF_WARMUP warm-up) on $(basename -- "$HF_SCEN")"
    hf_args=(--runs "$HF_RUNS" --warmup "$HF_WARMUP" -N -i --export-json "$TMP/hyperfine.json")
    [ -t 2 ] || hf_args+=(--style basic)
    IFS=, read -r -a hf_list <<<"$HF_SOLVERS"
    hf_count=()
    [ "$COUNT" -gt 0 ] && hf_count=(--count "$COUNT")
    [ "$SAMPLE" -gt 0 ] && hf_count+=(--sample "$SAMPLE")
    # the warm-up fills a private oracle cache, so the timed processes do not
    # pay the Dijkstra oracle: what they measure is start-up, loading, the
    # solver and the checks (not a ranking: the tables rank the solvers)
    for s in "${hf_list[@]}"; do
        hf_args+=(-n "$s" "$(printf '%q ' "$BIN_ABS" run --quiet --model "$MODEL" ${TERRAIN:+--terrain-costs "$TERRAIN"} --anyangle-model "$AAMODEL" --solver "$s" \
            --oracle-cache "$(abspath "$TMP")/hf-oracle" \
            "${hf_count[@]+"${hf_count[@]}"}" "$(abspath "$HF_SCEN")")")
    done
    hyperfine "${hf_args[@]}" >&2 || die 4 "hyperfine failed"
    rm -rf -- "$TMP/hf-oracle"
    HF_JSON="{\"version\": $(json_str "$(hyperfine --version)"), \"runs\": $HF_RUNS, \"warmup\": $HF_WARMUP, \"scen\": $(json_str "$HF_SCEN"), \"solvers\": $(json_list "${hf_list[@]}")}"
else
    step 4 "hyperfine: skipped"
    echo "hyperfine step skipped (--no-hyperfine, or no solver left to time for model $MODEL)." >>"$TMP/notes.txt"
fi

# ---- 5. env.json -----------------------------------------------------------
MODEL_NAME=$MODEL   # under terrain costs, the rows' model column (canonical costs)
if [ -n "$TERRAIN" ]; then
    MODEL_NAME=$(perl "$SCRIPTS/csv-cut.pl" "$TMP/queries.csv" model | sed -n 2p)
fi
step 5 "env.json"
{
    sed '$d' "$TMP/env-base.json" | sed '$s/$/,/'
    cat <<EOF
  "run": {
    "run_id": $(json_str "$RUN_ID"),
    "command": $(json_str "scripts/report.sh $ARGS_GIVEN"),
    "model": $(json_str "$MODEL_NAME"),
    "reps": $REPS,
    "regime": $(json_str "$REGIME"),
    "anyangle_model": $(json_str "$AAMODEL"),
    "jobs": $JOBS,
    "queries_from": $(json_str "${CSV_IN:-gridbench run}"),
    "count": $COUNT,
    "sample": $SAMPLE,
    "solvers_requested": $(json_str "$SOLVERS"),
    "queues_requested": $(json_str "$QUEUES"),
    "solvers": $(json_list "${RUN_SOLVERS[@]}"),
    "queues": $(json_list "${RUN_QUEUES[@]}"),
    "reference_queue": $(json_str "$REF_QUEUE"),
    "scenarios": $(json_files "${SCENS[@]}"),
    "maps": $(json_files "${MAPS[@]+"${MAPS[@]}"}"),
    "run_status": $run_rc,
    "resumed": $([ "$RESUME" = 1 ] && echo true || echo false),
    "gnuplot": $(json_str "$(gnuplot --version)"),
    "hyperfine": $HF_JSON
  }
}
EOF
} >"$TMP/env.json.part"
mv -- "$TMP/env.json.part" "$TMP/env.json"
rm -f -- "$TMP/env-base.json"

# ---- 6. plots and footprints -------------------------------------------------
step 6 "plots (gnuplot), search footprints, heuristics and search viewers"
# Every gnuplot call runs inside the run folder with relative paths and is
# recorded in replot.sh, so a plot can be remade from the folder alone.
printf '#!/bin/bash\n# Remake the plots of this run: cd into this folder, then bash replot.sh\nset -e\n' \
    >"$TMP/replot.sh"
gq() { printf '%s' "${1//\'/\'\'}"; }   # text for a gnuplot '...' string
# A complete plot: a PNG ends with its IEND chunk, an SVG with </svg>
# (gnuplot exits 0 even when a full disk cut its output short).
# plot_ok FILE...: prints the first that is empty or cut short and fails
# (one process for the PNG and the SVG of a plot: a report makes dozens).
plot_ok() {
    perl -e 'for my $p (@ARGV) {
        my ($f, $t, $n);
        open($f, "<", $p) && ($n = -s $f) && seek($f, $n > 64 ? $n - 64 : 0, 0) && defined(read $f, $t, 64)
            && ($p =~ /\.png$/ ? substr($t, -8) =~ /IEND/ : $p =~ /\.svg$/ ? $t =~ m{</svg>} : 1)
            or do { print $p; exit 1 };
    }' -- "$@"
}
gp() {   # gp SCRIPT 'assignments' OUT-BASENAME SECTION CAPTION
    local script=$1 vars="plotdir='$(gq "$PLOTDIR")'; $2" base=$3 section=$4 caption=$5 cmd bad
    # One gnuplot for both formats (its start costs about as much as a
    # plot): the script runs for the PNG, then, after a `reset` that drops
    # every setting the first run made, for the SVG -- each comes out byte
    # for byte as a gnuplot of its own writes it.
    cmd=(gnuplot -e "$vars; out='plots/$base.png'" "$PLOTDIR/$script"
         -e "reset; $vars; out='plots/$base.svg'" "$PLOTDIR/$script")
    (cd "$TMP" && "${cmd[@]}") || die 4 "gnuplot $script failed for plots/$base.png or plots/$base.svg"
    printf '%q ' "${cmd[@]}" >>"$TMP/replot.sh"
    echo >>"$TMP/replot.sh"
    bad=$(cd "$TMP" && plot_ok "plots/$base.png" "plots/$base.svg") ||
        die 4 "gnuplot $script wrote a truncated or empty $bad (disk full?)"
    printf '%s\tplots/%s.png\tplots/%s.svg\t%s\n' "$section" "$base" "$base" "$caption" >>"$TMP/plots.tsv"
}
: >"$TMP/plots.tsv"
q_note="solvers on queue $REF_QUEUE (bfs: fifo)"
while IFS=$'\t' read -r idx map slug scen nq; do
    case $idx in '#'*) continue ;; esac
    gp time_vs_length.gp "data='data/bucket-$slug.tsv'; panels='data/panels-$slug.gp'; map='$(gq "$map")'; queue='$(gq "$REF_QUEUE")'" "time-$slug" time \
        "Median time per query by optimal path length on \`$map\` ($nq queries, $q_note); log scale; one panel per solver family (at most 5 solvers each), \`dijkstra\` dashed in every panel as the reference."
done <"$TMP/data/maps.tsv"
while IFS=$'\t' read -r idx map slug scen nq; do
    case $idx in '#'*) continue ;; esac
    gp expansions_vs_length.gp "data='data/bucket-$slug.tsv'; panels='data/panels-$slug.gp'; map='$(gq "$map")'; queue='$(gq "$REF_QUEUE")'" "expansions-$slug" expansions \
        "Mean nodes expanded by optimal path length on \`$map\` ($q_note); log scale; one panel per solver family.  JPS, JPS+ and the subgoal graphs count **jump points or subgoals, not cells**: their panel has its own axis and no Dijkstra line.  Lines that coincide are drawn one on another, the earlier wider, so each stays visible; a mean of 0 expansions sits on the tick labelled 0."
done <"$TMP/data/maps.tsv"
if [ -s "$TMP/data/speedup.tsv" ]; then
    gp speedup.gp "data='data/speedup-g.tsv'; titles='data/speedup-maps.gp'; queue='$(gq "$REF_QUEUE")'" speedup speedup \
        "Per-query speedup over \`dijkstra\` on \`bheap\`, one panel per map, one box per solver (box: 25th-75th percentile, whiskers 5th-95th, bar: median); log scale.  Colour = the path guarantee: blue optimal, orange bounded (cost ≤ w × optimal), red none."
else
    echo "Speedup plot skipped: the run has no dijkstra on bheap, or no other solver, to compare." >>"$TMP/notes.txt"
fi
# solvers without the optimality guarantee: data/tradeoff.tsv (gridbench
# summary --plot-data wrote it: per query, cost / optimum against the
# speed-up over dijkstra on bheap on the same query)
if [ -s "$TMP/data/tradeoff.tsv" ]; then
    gp hpa_tradeoff.gp "data='data/tradeoff.tsv'; vs='dijkstra on bheap'; title='Solvers that are not optimal: path length against speed-up, per map and solver'" tradeoff tradeoff \
        "Solvers without the optimality guarantee on \`$REF_QUEUE\` (bounded, greedy, HPA*, any-angle): left, per query, path cost / Dijkstra's optimum (below 1: an any-angle path shorter than the best grid path); right, per query, speed-up over \`dijkstra\` on \`bheap\` (log scale).  Boxes: 25th-75th percentile, whiskers 1.5 IQR."
fi
nqplots=0
while IFS=$'\t' read -r idx map slug scen nq; do
    case $idx in '#'*) continue ;; esac
    [ -s "$TMP/data/queues-$slug.tsv" ] || continue
    gp queues.gp "data='data/queues-$slug.tsv'; map='$(gq "$map")'; queue='$(gq "$REF_QUEUE")'" "queues-$slug" queues \
        "Priority queues on \`$map\`: each solver's median time per query on each queue / its median on \`$REF_QUEUE\`; error bars: the 95 % bootstrap interval of that median (over a mix of query sizes, so wide), divided by the same.  Overlapping bars are a tie."
    nqplots=$((nqplots + 1))
done <"$TMP/data/maps.tsv"
if [ "$nqplots" = 0 ]; then
    echo "Queue comparison skipped: no solver ran on more than one queue." >>"$TMP/notes.txt"
fi
gp cactus.gp "data='data/cactus.tsv'; panels='data/panels-cactus.gp'; queue='$(gq "$REF_QUEUE")'" cactus cactus \
    "Cactus plot: each solver's query times sorted, all maps pooled ($q_note); point (k, t) = k queries solved within t each; one panel per solver family, \`dijkstra\` dashed in every panel."

if [ -n "$HEUR" ]; then
    cp -- "$HEUR" "$TMP/heuristics.csv"
fi
if [ -n "$HEUR_V" ]; then
    cp -- "$HEUR_V" "$TMP/heuristics-verdicts.csv"
elif [ "$HEURISTICS" = 1 ] && [ "${#MAPS[@]}" -gt 0 ]; then
    # every heuristic on every map of the run, against exact distances to 4
    # sampled goals; the verdicts of all maps in one CSV (one header), and
    # the informedness by distance of the first map, unless --heuristics gave one
    hv=()
    for i in "${!MAPS[@]}"; do
        hist=()
        [ "$i" = 0 ] && [ -z "$HEUR" ] && hist=(--hist "$TMP/heuristics.csv")
        "$BIN" heuristics "${MAPS[$i]}" --model "$MODEL" ${TERRAIN:+--terrain-costs "$TERRAIN"} --goals 4 -q \
            --verdicts "$TMP/data/heur-verdicts-$i.csv" "${hist[@]+"${hist[@]}"}" >/dev/null ||
            die 4 "gridbench heuristics failed on ${MAPS[$i]}"
        hv+=("$TMP/data/heur-verdicts-$i.csv")
    done
    { head -n 1 -- "${hv[0]}"; for f in "${hv[@]}"; do tail -n +2 -- "$f"; done; } >"$TMP/heuristics-verdicts.csv"
    echo "Heuristics: \`gridbench heuristics --goals 4\` on each of the ${#MAPS[@]} maps (exact distances to 4 sampled goals over every reachable cell)." >>"$TMP/notes.txt"
elif [ -n "$HEUR" ]; then
    echo "No table of heuristic verdicts: pass the --verdicts CSV of \`gridbench heuristics\` with --heuristics-verdicts." >>"$TMP/notes.txt"
fi
HIST_HEADER=heuristic,weight,bucket,lo,hi,mean_ratio,cells
if [ -f "$TMP/heuristics.csv" ]; then
    if [ "$(head -n 1 "$TMP/heuristics.csv" | tr -d '\r')" = "$HIST_HEADER" ]; then
        gp heuristics.gp "data='heuristics.csv'" heuristics heuristics \
            "Heuristic informedness from \`gridbench heuristics --hist\`: mean w·h / h* per true-distance bucket (1 = exact, above 1 = overestimates)."
    else
        echo "heuristics.csv is included, but not plotted: expected the --hist CSV of \`gridbench heuristics\` (header $HIST_HEADER)." >>"$TMP/notes.txt"
    fi
fi

if [ "$FOOTPRINTS" = 1 ] && [ -n "$FP_SOLVERS" ]; then
    mkdir -p "$TMP/footprints"
    while IFS=$'\t' read -r idx map slug scen nq; do
        case $idx in '#'*) continue ;; esac
        scen_abs=$(abspath "$scen")
        (cd "$TMP" && "$BIN_ABS" footprint --scen "$scen_abs" --longest \
            --model "$MODEL" --solver "$FP_SOLVERS" --out "footprints/$slug") ||
            die 4 "gridbench footprint failed on $scen"
        line=$(sed -n '1s/.* line \([0-9]*\):.*/\1/p' "$TMP/footprints/$slug.tsv")
        gp footprint.gp "params='footprints/$slug.gp'" "footprint-$slug" footprint \
            "Search footprint of the longest query of \`$map\` (line $line of its scenario): blue = expanded, orange = generated but not expanded, red = path. JPS shows only its jump points."
    done <"$TMP/data/maps.tsv"
else
    echo "Search footprints skipped (--no-footprints, or no solver left to draw for model $MODEL)." >>"$TMP/notes.txt"
fi
# one search viewer per map: its longest query, every step of each solver
if [ "$TRACES" = 1 ] && [ -n "$TR_SOLVERS" ]; then
    mkdir -p "$TMP/traces"
    : >"$TMP/traces.tsv"
    while IFS=$'\t' read -r idx map slug scen nq; do
        case $idx in '#'*) continue ;; esac
        scen_abs=$(abspath "$scen")
        tr_log=$(cd "$TMP" && "$BIN_ABS" trace --scen "$scen_abs" --longest --model "$MODEL" \
            --solver "$TR_SOLVERS" --out "traces/$slug" 2>&1) || {
            printf '%s\n' "$tr_log" >&2
            die 4 "gridbench trace failed on $scen"
        }
        printf '%s\ttraces/%s.html\n' "$map" "$slug" >>"$TMP/traces.tsv"
    done <"$TMP/data/maps.tsv"
else
    echo "Search viewers skipped (--no-traces, terrain costs, or no solver left to trace for model $MODEL)." >>"$TMP/notes.txt"
fi

# ---- 7. report -------------------------------------------------------------------
step 7 "report.md and report.html"
if [ "$run_rc" = 1 ]; then
    echo "**gridbench run reported solver failures** (exit status 1): see the headline findings." >>"$TMP/notes.txt"
fi
# report.png: the page as headless Chromium renders it, every image checked
# to load (scripts/check-html.sh); without chromium the step is skipped.
if [ "$HAVE_CHROMIUM" = 1 ]; then
    echo "\`report.png\`: a screenshot of \`report.html\` rendered by headless Chromium, which also checked that every image of the page loads (\`scripts/check-html.sh\`)." >>"$TMP/notes.txt"
else
    echo "No screenshot \`report.png\` and no browser check of the page: chromium is not installed (Debian package chromium)." >>"$TMP/notes.txt"
fi
"$BIN" report "$TMP" || die 4 "gridbench report failed"
if [ "$HAVE_CHROMIUM" = 1 ]; then
    step 8 "headless Chromium: every image of report.html loads; screenshot report.png"
    chk=0
    "$CHECK_HTML" --screenshot "$TMP/report.png" "$TMP/report.html" || chk=$?
    case $chk in
    0) ;;
    1) die 4 "report.html does not render cleanly in Chromium: an image is broken (see above)" ;;
    *) say "warning: chromium could not check report.html (exit $chk, see above): published without report.png" ;;
    esac
fi

# ---- publish ---------------------------------------------------------------------
rm -f -- "$TMP/run_status"
mv -T -- "$TMP" "$FINAL"
done_ok=1
ln -sfn -- "$RUN_ID" "$OUT_DIR/latest.tmp.$$"
mv -T -- "$OUT_DIR/latest.tmp.$$" "$OUT_DIR/latest"
say "done in $((${EPOCHSECONDS:-$(date +%s)} - T0)) s: $FINAL/report.html ($OUT_DIR/latest -> $RUN_ID)"
printf '%s\n' "$FINAL"
exit "$run_rc"
