#!/usr/bin/env bash
# check-layers.sh -- the include arrows of the source tree point one way,
# and no two source files call each other, directly or round a circle.
#
#   scripts/check-layers.sh [ROOT [BUILD]]
#
# solvers/ includes nothing of harness/.  harness/ is laid out by stage,
#   core -> io -> check -> gen -> run -> report -> cli
# and a file may include headers of its own folder, of folders before it,
# and of solvers/, never of a folder after it.  Headers are named by their
# base name (the Makefile puts every folder on the include path), so the
# check maps each quoted include to the folder that holds it.  Prints one
# line per arrow that points back ("FILE:LINE: includes X of FOLDER, after
# FOLDER") and exits 1 if there is any.
#
# With BUILD (a build folder: the Makefile passes its own), the calls too:
# from the objects' symbol tables (nm), an arrow from file A to file B for
# every function of B that A calls (a symbol A leaves undefined and B
# defines as text), and every circle of those arrows -- a strongly
# connected component of two files or more, found by Tarjan's algorithm --
# is printed ("calls: a circle: a.c -> b.c -> a.c") and fails the check.
# A circle is two files that cannot be read, tested or changed apart: the
# executor and the oracle were one until the oracle became an object of
# its own.  main.o is left out (it calls every command, and none calls it).
set -euo pipefail
root=${1:-.}
build=${2:-}
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

# ---- calls: no circle between two source files ---------------------------
if [ -n "$build" ]; then
    mapfile -t objs < <(find "$build/solvers" "$build/harness" -name '*.o' ! -name main.o 2>/dev/null | sort)
    if [ "${#objs[@]}" -eq 0 ]; then
        echo "layers: no objects in $build to read the calls from (build first)"; exit 1
    fi
    circles=$(
        { nm -A --defined-only "${objs[@]}" | awk '$2 ~ /^[TW]$/ { sub(/:.*$/, "", $1); print "D", $1, $3 }'
          nm -A --undefined-only "${objs[@]}" | awk '{ f = $1; sub(/:.*$/, "", f); print "U", f, $NF }'
        } | awk -v b="$build/" '
        function name(o) { sub("^" b, "", o); sub(/\.o$/, ".c", o); return o }
        $1 == "D" { def[$3] = name($2); next }
        { use[++nu] = name($2) SUBSEP $3 }
        END {
            for (i = 1; i <= nu; i++) {
                split(use[i], u, SUBSEP)
                if ((u[2] in def) && def[u[2]] != u[1] && !((u[1], def[u[2]]) in seen)) {
                    seen[u[1], def[u[2]]] = 1; adj[u[1], ++deg[u[1]]] = def[u[2]]; node[u[1]]; node[def[u[2]]]
                }
            }
            n = 0
            for (v in node) if (!(v in idx)) strong(v)
        }
        function strong(v,   w, i, c, k) {
            idx[v] = n; low[v] = n; n++; st[++sp] = v; on[v] = 1
            for (i = 1; i <= deg[v]; i++) {
                w = adj[v, i]
                if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
                else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
            }
            if (low[v] != idx[v]) return
            c = ""; k = 0
            do { w = st[sp--]; on[w] = 0; c = w (k ? " -> " c : ""); k++ } while (w != v)
            if (k > 1) print "calls: a circle of " k " files: " c " -> " v
        }')
    if [ -n "$circles" ]; then
        printf '%s\n' "$circles"
        echo "layers: files that call each other: make one of them an object the other uses (see docs/design/layout.md)"
        bad=1
    else
        echo "layers: no two files call each other, directly or round a circle (${#objs[@]} objects)"
    fi
fi
exit "$bad"
