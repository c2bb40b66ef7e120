#!/usr/bin/env bash
# submit.sh -- run gridbench on a Slurm cluster: a job array of N shards, then
# a merge job that starts when every task of the array has succeeded.
#
#   scripts/slurm/submit.sh [OPTIONS] -- RUN-OPTIONS... SCEN...
#
# Submits
#   1. gridbench-array.sbatch as `sbatch --array=0-(N-1)`: task I runs
#      `gridbench run RUN-OPTIONS --shard I/N --out DIR/shard-I-of-N.csv SCEN...`;
#   2. gridbench-merge.sbatch with --dependency=afterok:<array job id>:
#      `gridbench merge --out MERGED DIR/shard-0-of-N.csv ...`.
# and prints both job ids and where the merged CSV will be.  DIR/jobs.env
# records them (ARRAY_JOB, MERGE_JOB, SHARDS, MERGED) for scripts.
#
# Everything the jobs read and write (the gridbench binary, the scenario and
# map files, DIR) must be at the same path on the compute nodes, i.e. on the
# cluster's shared file system.  Slurm options for both jobs (partition,
# account, time limit, ...) come from --sbatch ARG or from sbatch's own
# environment variables (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT).
#
# Exit status: 0 both jobs submitted; 64 bad usage; 69 sbatch is missing or
# refused a job (if the array was submitted but not the merge, the array is
# cancelled again).
set -euo pipefail

PROG=submit.sh
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
    cat <<'EOF'
usage: scripts/slurm/submit.sh [OPTIONS] -- RUN-OPTIONS... SCEN...

Run `gridbench run RUN-OPTIONS... SCEN...` as a Slurm job array of N shards,
then merge the shards into one CSV in a job that waits for the array.

  -n, --shards N        array tasks, i.e. shards (default 4)
  -d, --dir DIR         folder for shards, logs and the merged CSV; must be on
                        a file system the compute nodes share, and hold no
                        shards yet (default results/slurm-<date>-<time>)
  -o, --out FILE        merged CSV (default DIR/merged.csv)
      --gridbench PATH  the gridbench binary (default: this checkout's
                        ./gridbench if built, else gridbench on PATH)
      --max-running M   at most M tasks at once (--array=0-(N-1)%M)
      --sbatch ARG      extra option for both sbatch calls (repeatable), e.g.
                        --sbatch --partition=short --sbatch --time=2:00:00
  -h, --help            this text

RUN-OPTIONS must not contain --out or --shard (each task gets its own).
Use --jobs C together with --sbatch --cpus-per-task=C to run C worker
processes in each task.

Example:
  scripts/slurm/submit.sh -n 16 -d /scratch/$USER/street -- \
      -s dijkstra,astar-octile,jps -q bheap,bucket datasets/street/*.scen
EOF
}

die() { echo "$PROG: $*" >&2; exit 64; }

N=4 DIR='' MERGED='' GB='' MAXRUN=''
SBATCH_ARGS=()
while [ $# -gt 0 ]; do
    case $1 in
        -n|--shards) [ $# -ge 2 ] || die "$1 needs a value"; N=$2; shift 2 ;;
        -d|--dir) [ $# -ge 2 ] || die "$1 needs a value"; DIR=$2; shift 2 ;;
        -o|--out) [ $# -ge 2 ] || die "$1 needs a value"; MERGED=$2; shift 2 ;;
        --gridbench) [ $# -ge 2 ] || die "$1 needs a value"; GB=$2; shift 2 ;;
        --max-running) [ $# -ge 2 ] || die "$1 needs a value"; MAXRUN=$2; shift 2 ;;
        --sbatch) [ $# -ge 2 ] || die "$1 needs a value"; SBATCH_ARGS+=("$2"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) die "unknown option '$1' (run options go after --; see --help)" ;;
    esac
done
[ $# -ge 1 ] || die "no RUN-OPTIONS/SCEN after -- (see --help)"
[[ $N =~ ^[1-9][0-9]*$ ]] || die "--shards: expected a positive integer, found '$N'"
[ -z "$MAXRUN" ] || [[ $MAXRUN =~ ^[1-9][0-9]*$ ]] \
    || die "--max-running: expected a positive integer, found '$MAXRUN'"
for a in "$@"; do
    case $a in
        -o|--out|--out=*|--shard|--shard=*) die "RUN-OPTIONS must not contain $a (each task gets its own)" ;;
    esac
done
command -v sbatch >/dev/null || { echo "$PROG: sbatch not found (is this a Slurm login node?)" >&2; exit 69; }

if [ -z "$GB" ]; then
    if [ -x "$HERE/../../gridbench" ]; then GB=$HERE/../../gridbench
    else GB=$(command -v gridbench) || die "no gridbench built here nor on PATH (use --gridbench)"; fi
fi
GB=$(readlink -f "$GB")
[ -x "$GB" ] || die "--gridbench: '$GB' is not executable"

[ -n "$DIR" ] || DIR=results/slurm-$(date +%Y%m%d-%H%M%S)
mkdir -p "$DIR/logs"
DIR=$(cd "$DIR" && pwd)
if compgen -G "$DIR/shard-*" >/dev/null; then
    die "$DIR already holds shards of another run: choose another --dir or remove them"
fi
[ -n "$MERGED" ] || MERGED=$DIR/merged.csv
case $MERGED in /*) ;; *) MERGED=$PWD/$MERGED ;; esac

export GRIDBENCH=$GB
array="0-$((N - 1))${MAXRUN:+%$MAXRUN}"
AJ=$(sbatch --parsable --array="$array" --output="$DIR/logs/shard-%a.log" \
        "${SBATCH_ARGS[@]}" "$HERE/gridbench-array.sbatch" "$DIR" "$@") \
    || { echo "$PROG: sbatch refused the array job" >&2; exit 69; }
AJ=${AJ%%;*}    # --parsable prints "jobid[;cluster]"
MJ=$(sbatch --parsable --dependency="afterok:$AJ" --kill-on-invalid-dep=yes \
        --output="$DIR/logs/merge.log" "${SBATCH_ARGS[@]}" \
        "$HERE/gridbench-merge.sbatch" "$DIR" "$N" "$MERGED") \
    || { echo "$PROG: sbatch refused the merge job; cancelling array job $AJ" >&2
         scancel "$AJ" || true; exit 69; }
MJ=${MJ%%;*}

printf 'ARRAY_JOB=%s\nMERGE_JOB=%s\nSHARDS=%s\nMERGED=%q\n' "$AJ" "$MJ" "$N" "$MERGED" > "$DIR/jobs.env"
echo "array job $AJ: $N tasks, shards in $DIR/shard-I-of-$N.csv, logs in $DIR/logs/"
echo "merge job $MJ (after every task of $AJ succeeds) writes $MERGED"
echo "follow with: squeue -j $AJ,$MJ    cancel with: scancel $AJ $MJ"
