#!/usr/bin/env bash
# test-slurm.sh -- `make test-slurm`: a real single-node Slurm on this machine,
# a 4-task job array of gridbench shards through scripts/slurm/submit.sh, and
# the merged CSV compared with an unsharded run.
#
# What it does, in order
#   1. installs slurm-wlm and munge through scripts/deps.sh (Debian, as root);
#   2. makes a private world in a temp folder T (mode 755, root-owned):
#      a munge key and munged on the socket T/munge/munge.sock; a slurm.conf
#      naming this host (its `slurmd -C` CPUs and memory, address 127.0.0.1),
#      proctrack/linuxproc, task/none, select/cons_tres (CR_CPU), no cgroups,
#      no accounting, SlurmUser=root, state, spool, logs and pid files in T,
#      and two free TCP ports (from 16817 up, not Slurm's defaults, so that a
#      real Slurm on the machine is never touched); no systemd is needed;
#   3. starts munged, slurmctld and slurmd in the foreground as background
#      children (their pids are kept) and waits until sinfo shows the node
#      idle;
#   4. runs the unsharded reference, submits the array + merge job, waits for
#      both (bounded: GB_SLURM_TIMEOUT seconds, default 600), and checks that
#      every task and the merge COMPLETED with exit 0, that the shards are
#      real slices (each smaller than the whole, rows adding up), and that the
#      merged CSV equals the reference with the timing columns dropped
#      (scripts/csv-drop-timing.pl); then that an --array=1-2 submission of
#      gridbench-array.sbatch is refused by its tasks (no shard written);
#   5. on exit, success or not (trap): cancels the jobs, stops the daemons
#      (TERM, then KILL after 10 s), kills any process still carrying this
#      run's marker, prints the logs if it failed, removes T.
#
# Idempotent, and leaves nothing running: one run at a time (flock on
# /tmp/gridbench-slurm.lock); every process it starts -- daemons, job steps
# -- carries GB_SLURM_TEST=T in its environment, or (slurmstepd) holds a
# file under T open, so a run finds and ends the leftovers of an earlier run
# that was killed before its trap ran (by pid, after checking that mark),
# and removes that run's folder.
#
# Environment: GRIDBENCH (binary, default ./build/gridbench), GB_SLURM_SHARDS
# (4), GB_SLURM_RUN_ARGS (run options, default
# "-s dijkstra,astar-octile,jps -q bheap,bucket"), GB_SLURM_SCENS (scenario
# files, default datasets/default/*.scen), GB_SLURM_TIMEOUT (600),
# GB_SLURM_KEEP=1 (keep T after the daemons are stopped), GB_SLURM_NO_INSTALL=1.
#
# Exit status: 0 pass; 1 the merged CSV differs, or a job failed or timed
# out; 2 the bring-up failed (packages, daemons, node never idle); 64 not
# root or bad usage.
set -euo pipefail

PROG=test-slurm
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GB=$(readlink -f "${GRIDBENCH:-$ROOT/build/gridbench}")
SHARDS=${GB_SLURM_SHARDS:-4}
RUN_ARGS=${GB_SLURM_RUN_ARGS:--s dijkstra,astar-octile,jps -q bheap,bucket}
TIMEOUT=${GB_SLURM_TIMEOUT:-600}
TMPBASE=${TMPDIR:-/tmp}
T0=$SECONDS

say() { echo "$PROG: $*" >&2; }
fail() { say "FAIL: $*"; exit "${2:-1}"; }

[ "$(id -u)" -eq 0 ] || { say "needs root (it starts slurmctld, slurmd and munged as root)"; exit 64; }
[ -x "$GB" ] || { say "no gridbench binary at $GB (run make first, or set GRIDBENCH)"; exit 64; }

# Whatever Slurm context we were started in (a job, an sbatch environment)
# must not leak into the private cluster's clients.
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE|SINFO|SCONTROL)_' || true)

# ---- 1. packages ---------------------------------------------------------
if [ "${GB_SLURM_NO_INSTALL:-0}" != 1 ]; then
    "$ROOT/scripts/deps.sh" slurm-wlm munge || fail "installing slurm-wlm and munge failed" 2
fi
for b in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$b" >/dev/null || fail "$b not found after installing slurm-wlm and munge" 2
done
T_INSTALL=$((SECONDS - T0))

# ---- one run at a time; the leftovers of a killed run are ended ------------
exec 9>"$TMPBASE/gridbench-slurm.lock"
if ! flock -n 9; then
    say "waiting for another test-slurm to finish (lock $TMPBASE/gridbench-slurm.lock)"
    flock -w $((TIMEOUT + 120)) 9 || fail "another test-slurm still holds $TMPBASE/gridbench-slurm.lock" 2
fi

# pids (other than ours) of this run's processes ($1 = its folder T), or of
# any earlier run's ($1 empty): those whose environment holds GB_SLURM_TEST=T
# (daemons and job steps), or that hold a file under T open (slurmstepd,
# which overwrites its environment with its process title, keeps slurmd's
# log open).
marked_pids() {
    local want=$1 p pid
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        if [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ]; then continue; fi
        if [ -n "$want" ]; then
            grep -qzxF "GB_SLURM_TEST=$want" "$p/environ" 2>/dev/null \
                || [ -n "$(find "$p/fd" -lname "$want/*" -print -quit 2>/dev/null)" ] \
                || continue
        else
            grep -qzE "^GB_SLURM_TEST=$TMPBASE/gridbench-slurm\.[A-Za-z0-9]+\$" "$p/environ" 2>/dev/null \
                || [ -n "$(find "$p/fd" -lname "$TMPBASE/gridbench-slurm.*/*" -print -quit 2>/dev/null)" ] \
                || continue
        fi
        echo "$pid"
    done
    return 0
}
# TERM, wait up to 10 s, then KILL; $@ are pids.
stop_pids() {
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do
        kill -0 "$@" 2>/dev/null || return 0
        sleep 0.2
    done
    kill -KILL "$@" 2>/dev/null || true
}

stale=$(marked_pids "")
if [ -n "$stale" ]; then
    say "ending leftover process(es) of an earlier run: ${stale//$'\n'/ }"
    # shellcheck disable=SC2086
    stop_pids $stale
fi
for d in "$TMPBASE"/gridbench-slurm.*/; do
    [ -d "$d" ] && [ -f "$d/slurm.conf" ] && { say "removing the folder of an earlier run: $d"; rm -rf "$d"; }
done

# ---- 2. the private world ---------------------------------------------------
T_UP0=$SECONDS
T=$(mktemp -d "$TMPBASE/gridbench-slurm.XXXXXX")
chmod 755 "$T"                    # munged wants every directory above its socket searchable
export GB_SLURM_TEST=$T
export XDG_CACHE_HOME=$T/cache    # the oracle cache of the reference and of the jobs: private
mkdir -p "$T/munge" "$T/key" "$T/state" "$T/spool" "$T/log" "$T/run" "$T/jobs"
chmod 755 "$T/munge"
chmod 700 "$T/key" "$T/state"
PASS=0
PIDS=()

cleanup() {
    local rc=$?
    set +e
    trap - EXIT INT TERM
    if [ -S "$T/munge/munge.sock" ] && [ -n "${SLURM_CONF:-}" ]; then
        scancel --quiet --user=root >/dev/null 2>&1   # only jobs of this private cluster
        sleep 1
    fi
    [ ${#PIDS[@]} -eq 0 ] || stop_pids "${PIDS[@]}"
    local left
    left=$(marked_pids "$T")
    # shellcheck disable=SC2086
    [ -z "$left" ] || { say "ending leftover process(es): ${left//$'\n'/ }"; stop_pids $left; }
    if [ "$PASS" != 1 ]; then
        say "---- logs (for the failure above) ----"
        local f
        for f in "$T"/log/*.log "$T"/log/*.out "$T"/jobs/logs/*; do
            [ -f "$f" ] || continue
            case $f in *.out) [ -s "${f%.out}.log" ] && continue ;; esac   # the same lines
            echo "==== $f (last 40 lines)" >&2
            tail -n 40 "$f" >&2
        done
        [ "$rc" -ne 0 ] || rc=1
    fi
    if [ "${GB_SLURM_KEEP:-0}" = 1 ]; then say "kept $T"; else rm -rf "$T"; fi
    flock -u 9
    say "daemons stopped, $( [ "${GB_SLURM_KEEP:-0}" = 1 ] && echo "temp folder kept" || echo "temp folder removed"), total $((SECONDS - T0)) s"
    exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM

# munge: a private key and socket (nothing in /etc/munge is read or changed)
head -c 1024 /dev/urandom > "$T/key/munge.key"
chmod 400 "$T/key/munge.key"
munged --foreground --socket="$T/munge/munge.sock" --key-file="$T/key/munge.key" \
    --pid-file="$T/run/munged.pid" --log-file="$T/log/munged.log" --seed-file="$T/key/munged.seed" \
    >>"$T/log/munged.log" 2>&1 9>&- &
PIDS+=($!)

# two free ports: nothing accepts a connection on them
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
CTLD_PORT=
for p in $(seq 16817 2 16899); do
    if port_free "$p" && port_free $((p + 1)); then CTLD_PORT=$p; break; fi
done
[ -n "$CTLD_PORT" ] || fail "no two free ports between 16817 and 16900" 2
SLURMD_PORT=$((CTLD_PORT + 1))

NODE=$(hostname -s 2>/dev/null || hostname)
# "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105"
HW=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
[[ $HW == CPUs=* ]] || fail "slurmd -C printed no hardware line: $(slurmd -C 2>&1 | head -n 3)" 2

cat > "$T/slurm.conf" <<EOF
# written by scripts/test-slurm.sh: one node, this host, everything in $T
ClusterName=gridbench-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=3600
MailProg=/bin/true
NodeName=$NODE NodeAddr=127.0.0.1 $HW State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf

for i in $(seq 1 50); do [ -S "$T/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.sock" ] || fail "munged did not create its socket" 2

slurmctld -D -f "$SLURM_CONF" >>"$T/log/slurmctld.out" 2>&1 9>&- &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" >>"$T/log/slurmd.out" 2>&1 9>&- &
PIDS+=($!)

state=
for i in $(seq 1 120); do
    state=$(sinfo -h -n "$NODE" -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null || fail "a daemon (pid $p) exited during start-up" 2; done
    sleep 0.5
done
[ "$state" = idle ] || fail "node $NODE not idle after 60 s (sinfo state: '${state:-none}')" 2
T_UP=$((SECONDS - T_UP0))
say "single-node Slurm up on $NODE (ports $CTLD_PORT/$SLURMD_PORT) in $T_UP s: $HW"

# ---- 4. reference, array, merge ----------------------------------------------
cd "$ROOT"
# shellcheck disable=SC2206
SCENS=(${GB_SLURM_SCENS:-datasets/default/*.scen})
# shellcheck disable=SC2206
RUN=($RUN_ARGS)
"$GB" run "${RUN[@]}" --quiet --out "$T/unsharded.csv" "${SCENS[@]}" \
    || fail "the unsharded reference run failed (exit $?)"

# wait_jobs IDS SECONDS: until no job of IDS (comma-separated) is queued or
# running; fails after SECONDS, or when a daemon dies.
wait_jobs() {
    local ids=$1 limit=$2 t=$SECONDS left p
    while :; do
        left=$(squeue -h -j "$ids" -o '%i %T' 2>/dev/null || true)
        [ -n "$left" ] || return 0
        for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null || fail "a daemon (pid $p) died while the jobs ran"; done
        [ $((SECONDS - t)) -lt "$limit" ] \
            || fail "jobs not finished after $limit s; still queued: ${left//$'\n'/, }"
        sleep 0.5
    done
}

T_SUB=$SECONDS
"$ROOT/scripts/slurm/submit.sh" -n "$SHARDS" -d "$T/jobs" --gridbench "$GB" \
    -- "${RUN[@]}" --quiet "${SCENS[@]}" || fail "submit.sh failed" 2
# shellcheck disable=SC1091
. "$T/jobs/jobs.env"

wait_jobs "$ARRAY_JOB,$MERGE_JOB" "$TIMEOUT"
T_JOBS=$((SECONDS - T_SUB))

# every task and the merge: COMPLETED, exit 0
states=$(scontrol -o show job "$ARRAY_JOB" 2>/dev/null; scontrol -o show job "$MERGE_JOB" 2>/dev/null)
ntask=$(grep -c "ArrayJobId=$ARRAY_JOB " <<<"$states" || true)
bad=$(grep -v -E 'JobState=COMPLETED .*ExitCode=0:0' <<<"$states" | grep -o -E 'JobId=[0-9]+ (ArrayJobId=[0-9]+ ArrayTaskId=[0-9]+ )?|JobState=[A-Z_]+|ExitCode=[0-9:]+' | paste -sd ' ' || true)
[ "$ntask" -eq "$SHARDS" ] || fail "expected $SHARDS array tasks, scontrol shows $ntask"
[ -z "$bad" ] || fail "a job did not complete with exit 0: $bad"

# the shards are real slices of the plan, and the merge is the unsharded run
[ -s "$MERGED" ] || fail "the merge job completed but $MERGED is missing or empty"
total=$(($(wc -l <"$MERGED") - 1))
sum=0
for ((i = 0; i < SHARDS; i++)); do
    f=$T/jobs/shard-$i-of-$SHARDS.csv
    [ -s "$f" ] || fail "shard $f is missing or empty"
    n=$(($(wc -l <"$f") - 1))
    [ "$SHARDS" -eq 1 ] || [ "$n" -lt "$total" ] || fail "shard $i/$SHARDS has $n rows, as many as the whole plan: not a slice"
    sum=$((sum + n))
done
[ "$sum" -eq "$total" ] || fail "the shards hold $sum rows, the merged CSV $total"
"$ROOT/scripts/csv-drop-timing.pl" "$T/unsharded.csv" > "$T/unsharded.untimed" || fail "cannot read the reference CSV"
"$ROOT/scripts/csv-drop-timing.pl" "$MERGED" > "$T/merged.untimed" || fail "cannot read the merged CSV"
if ! cmp -s "$T/unsharded.untimed" "$T/merged.untimed"; then
    say "merged ($MERGED) vs unsharded ($T/unsharded.csv), timing columns dropped:"
    diff "$T/unsharded.untimed" "$T/merged.untimed" | head -n 20 >&2
    fail "the merged CSV of the $SHARDS-task array differs from the unsharded run"
fi

# an array that is not 0..N-1 would leave shards out: every task refuses it
mkdir -p "$T/bad"
BAD=$(GRIDBENCH=$GB sbatch --parsable --array=1-2 --output="$T/bad/task-%a.log" \
    "$ROOT/scripts/slurm/gridbench-array.sbatch" "$T/bad" "${RUN[@]}" --quiet "${SCENS[@]}") \
    || fail "sbatch refused the --array=1-2 job"
wait_jobs "$BAD" 120
bstates=$(scontrol -o show job "$BAD" 2>/dev/null | grep -o -E 'JobState=[A-Z_]+ .*ExitCode=[0-9:]+' | sed 's/ .* / /' | sort | uniq -c | paste -sd ' ')
if [ "$(scontrol -o show job "$BAD" | grep -c 'JobState=FAILED .*ExitCode=64:0')" -ne 2 ] \
        || ! grep -q 'the array must be 0-1' "$T/bad/task-1.log" || compgen -G "$T/bad/shard-*" >/dev/null; then
    cat "$T"/bad/task-*.log >&2 2>/dev/null
    fail "an --array=1-2 submission: expected both tasks to refuse (FAILED, exit 64, no shard), got: $bstates"
fi
say "ok: an array that is not 0..N-1 is refused by its tasks (exit 64)"

PASS=1
say "PASS: $SHARDS-task array + merge job == unsharded run ($total rows, timing columns aside)"
say "times: packages $T_INSTALL s, bring-up $T_UP s, submit..merged $T_JOBS s"
