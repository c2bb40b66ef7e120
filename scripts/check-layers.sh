#!/usr/bin/env bash
# check-layers.sh -- the include arrows of the source tree point one way.
#
#   scripts/check-layers.sh [ROOT]
#
# solvers/ includes nothing of harness/.  harness/ is laid out by stage,
#   core -> io -> check -> gen -> run -> report -> cli
# and a file may include headers of its own folder, of folders before it,
# and of solvers/, never of a folder after it.  Headers are named by their
# base name (the Makefile puts every folder on the include path), so the
# check maps each quoted include to the folder that holds it.  Prints one
# line per arrow that points back ("FILE:LINE: includes X of FOLDER, after
# FOLDER") and exits 1 if there is any.
set -euo pipefail
root=${1:-.}
cd "$root"
order=(core io check gen run report cli)
declare -A rank home
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done
# (parameter expansion, not basename: this runs in every make test, and a
# subshell per include line cost 6 s of CPU)
for f in harness/*/*.h; do d=${f%/*}; home[${f##*/}]=${d##*/}; done
for f in solvers/*.h; do home[${f##*/}]=solvers; done
bad=0
check() {   # FILE FOLDER: every quoted include of FILE against FOLDER's rank
    local f=$1 dir=$2 n=0 line inc to
    while IFS= read -r line; do
        n=$((n + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]##*/}
        to=${home[$inc]:-}
        [ -n "$to" ] || continue                 # a local or generated header
        if [ "$dir" = solvers ]; then
            [ "$to" = solvers ] || { echo "$f:$n: includes $inc of harness/$to; solvers/ includes nothing of harness/"; bad=1; }
        elif [ "$to" != solvers ] && [ "${rank[$to]}" -gt "${rank[$dir]}" ]; then
            echo "$f:$n: includes $inc of harness/$to, a stage after harness/$dir"; bad=1
        fi
    done < "$f"
}
for f in solvers/*.[ch] solvers/*.pmt; do [ -f "$f" ] && check "$f" solvers; done
for d in "${order[@]}"; do
    for f in harness/"$d"/*.[ch]; do [ -f "$f" ] && check "$f" "$d"; done
done
[ "$bad" -eq 0 ] && echo "layers: every include points down (${order[*]})"
exit "$bad"
