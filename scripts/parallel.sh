#!/usr/bin/env bash
# parallel.sh -- run gridbench over a few machines with GNU parallel and ssh:
# N shards of the plan, run where parallel sends them, then merged here.
#
#   scripts/parallel.sh [OPTIONS] -- RUN-OPTIONS... SCEN...
#
# Shard I (0 <= I < N) runs, on whichever --sshlogin machine parallel picks,
#   gridbench run RUN-OPTIONS --shard I/N --out DIR/shard-I-of-N.csv SCEN...
# (through this script's --one-shard mode, in the directory parallel.sh was
# started from, its stderr in DIR/logs/shard-I.log); when all are done,
#   gridbench merge --out MERGED DIR/shard-0-of-N.csv ...
# runs here.  The merged CSV is what one unsharded run writes, timing
# columns aside.
#
# Every machine must see the same paths: this script, the gridbench binary,
# the scenario and map files, the working directory and DIR (a shared file
# system, or identical checkouts with DIR shared).  The remote machines need
# password-less ssh and a POSIX shell; GNU parallel is needed only here.
# `--sshlogin :` (the default) is this machine, without ssh.
#
# Exit status: as `gridbench run` for the merged result -- 0 all rows right,
# 1 a solver returned a wrong path, 2 (--strict) scenario lengths disagree;
# 64 bad usage; 65 `gridbench merge` refused the shards; 69 GNU parallel is
# missing; 75 a shard failed (see its log; --resume reruns only the shards
# not done).
set -euo pipefail

PROG=parallel.sh
SELF=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SELF")

# ---- one shard: what parallel runs on each machine ------------------------
#   parallel.sh --one-shard WORKDIR GRIDBENCH DIR I N RESUME RUN-OPTIONS... SCEN...
# Exit 0 when the shard's CSV is written (its verdict, 0/1/2, goes to
# DIR/shard-I-of-N.rc), else gridbench's exit status.
if [ "${1:-}" = --one-shard ]; then
    shift
    WD=$1 GB=$2 DIR=$3 I=$4 N=$5 RESUME=$6
    shift 6
    cd "$WD"
    out=$DIR/shard-$I-of-$N.csv
    rcf=$DIR/shard-$I-of-$N.rc
    if [ "$RESUME" = 1 ] && [ -s "$out" ] && [ -s "$out.shard" ] && [ -s "$rcf" ] \
        && [ "$(cat "$rcf")" -le 2 ]; then
        echo "shard $I/$N: done before, kept"
        exit 0
    fi
    resume=()
    [ "$RESUME" = 1 ] && resume=(--resume)
    rm -f "$rcf"
    rc=0
    "$GB" run "$@" "${resume[@]}" --shard "$I/$N" --out "$out" 2>>"$DIR/logs/shard-$I.log" || rc=$?
    echo "shard $I/$N: gridbench run exited $rc on $(hostname)"
    case $rc in
        0|1|2) echo "$rc" > "$rcf"; exit 0 ;;
        *) exit "$rc" ;;
    esac
fi

usage() {
    cat <<'EOF'
usage: scripts/parallel.sh [OPTIONS] -- RUN-OPTIONS... SCEN...

Run `gridbench run RUN-OPTIONS... SCEN...` as N shards with GNU parallel,
locally or over ssh, then merge them into one CSV.

  -n, --shards N        shards (default 4)
  -S, --sshlogin LOGIN  where shards run, as GNU parallel's --sshlogin:
                        ':' this machine (default), 'host', 'user@host',
                        '4/host' (at most 4 shards at once there); repeatable
                        or comma-separated
      --sshloginfile F  the logins, one per line (parallel --sshloginfile)
  -j, --per-host J      shards at once on each machine (default: one per CPU
                        of that machine; a LOGIN's 'J/' prefix wins)
  -d, --dir DIR         folder for shards and logs, seen by every machine at
                        the same path (default results/parallel-<date>-<time>)
  -o, --out FILE        merged CSV (default DIR/merged.csv)
      --gridbench PATH  the gridbench binary (default: this checkout's
                        ./gridbench if built, else gridbench on PATH)
      --resume          continue an interrupted run in DIR: shards already
                        written are kept, the others continue their journal
  -h, --help            this text

RUN-OPTIONS must not contain --out or --shard.  With --jobs C in RUN-OPTIONS
each shard runs C worker processes: lower --per-host to match.

Example (two machines sharing /home, 8 shards):
  scripts/parallel.sh -n 8 -S 2/node1,2/node2 -d ~/gb/street -- \
      -s dijkstra,astar-octile,jps -q bheap,bucket datasets/street/*.scen
EOF
}

die() { echo "$PROG: $*" >&2; exit 64; }

N=4 DIR='' MERGED='' GB='' PERHOST='' RESUME=0
LOGINS=()
while [ $# -gt 0 ]; do
    case $1 in
        -n|--shards) [ $# -ge 2 ] || die "$1 needs a value"; N=$2; shift 2 ;;
        -S|--sshlogin) [ $# -ge 2 ] || die "$1 needs a value"; LOGINS+=(--sshlogin "$2"); shift 2 ;;
        --sshloginfile) [ $# -ge 2 ] || die "$1 needs a value"; LOGINS+=(--sshloginfile "$2"); shift 2 ;;
        -j|--per-host) [ $# -ge 2 ] || die "$1 needs a value"; PERHOST=$2; shift 2 ;;
        -d|--dir) [ $# -ge 2 ] || die "$1 needs a value"; DIR=$2; shift 2 ;;
        -o|--out) [ $# -ge 2 ] || die "$1 needs a value"; MERGED=$2; shift 2 ;;
        --gridbench) [ $# -ge 2 ] || die "$1 needs a value"; GB=$2; shift 2 ;;
        --resume) RESUME=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown option '$1' (run options go after --; see --help)" ;;
    esac
done
[ $# -ge 1 ] || die "no RUN-OPTIONS/SCEN after -- (see --help)"
[[ $N =~ ^[1-9][0-9]*$ ]] || die "--shards: expected a positive integer, found '$N'"
[ -z "$PERHOST" ] || [[ $PERHOST =~ ^[1-9][0-9]*$ ]] \
    || die "--per-host: expected a positive integer, found '$PERHOST'"
for a in "$@"; do
    case $a in
        -o|--out|--out=*|--shard|--shard=*) die "RUN-OPTIONS must not contain $a (each shard gets its own)" ;;
    esac
done
[ ${#LOGINS[@]} -gt 0 ] || LOGINS=(--sshlogin :)
command -v parallel >/dev/null \
    || { echo "$PROG: GNU parallel not found (Debian: apt-get install parallel)" >&2; exit 69; }

if [ -z "$GB" ]; then
    if [ -x "$HERE/../gridbench" ]; then GB=$HERE/../gridbench
    else GB=$(command -v gridbench) || die "no gridbench built here nor on PATH (use --gridbench)"; fi
fi
GB=$(readlink -f "$GB")
[ -x "$GB" ] || die "--gridbench: '$GB' is not executable"

[ -n "$DIR" ] || DIR=results/parallel-$(date +%Y%m%d-%H%M%S)
mkdir -p "$DIR/logs"
DIR=$(cd "$DIR" && pwd)
if [ "$RESUME" = 0 ] && compgen -G "$DIR/shard-*" >/dev/null; then
    die "$DIR already holds shards: choose another --dir, remove them, or --resume"
fi
[ -n "$MERGED" ] || MERGED=$DIR/merged.csv
case $MERGED in /*) ;; *) MERGED=$PWD/$MERGED ;; esac

# -q: each word reaches the remote command as it is (no second round of
# shell parsing there); {} is the shard index.
rc=0
parallel -q ${PERHOST:+--jobs "$PERHOST"} "${LOGINS[@]}" --line-buffer \
    --joblog "$DIR/logs/joblog" \
    "$SELF" --one-shard "$PWD" "$GB" "$DIR" {} "$N" "$RESUME" "$@" \
    ::: $(seq 0 $((N - 1))) || rc=$?
if [ "$rc" -ne 0 ]; then
    echo "$PROG: $rc shard(s) failed (logs: $DIR/logs/shard-I.log, $DIR/logs/joblog);" \
         "rerun with --resume -d $DIR to run only those" >&2
    exit 75
fi

shards=()
for ((i = 0; i < N; i++)); do shards+=("$DIR/shard-$i-of-$N.csv"); done
# merge: 0 merged; 1 merged, some rows are solver failures; other: refused
worst=0
"$GB" merge --out "$MERGED" "${shards[@]}" || worst=$?
[ "$worst" -le 1 ] || { echo "$PROG: gridbench merge refused the shards (exit $worst)" >&2; exit "$worst"; }
for ((i = 0; i < N; i++)); do
    v=$(cat "$DIR/shard-$i-of-$N.rc")
    [ "$v" -gt "$worst" ] && worst=$v
done
echo "$PROG: $N shards -> $MERGED (gridbench run verdict: exit $worst)" >&2
exit "$worst"
