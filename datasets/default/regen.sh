#!/usr/bin/env bash
# regen.sh -- regenerate the bundled default dataset (datasets/default/)
# with the project's own generator.  Output is byte-identical on every run
# and machine (see harness/gen/gb_gen.h); run it after changing the generator
# or gb_dijkstra_all, then review the diff.
#
# Usage: datasets/default/regen.sh   (from anywhere; needs ./gridbench,
#        built by `make`, at the repository root)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
if [[ ! -x ./gridbench ]]; then
    printf 'regen.sh: expected ./gridbench at %s, found none: run make first\n' "$root" >&2
    exit 69
fi

out=datasets/default
common=(--size 128x128 --seed 1 --per-bucket 5 --max-queries 150 --out "$out")

./gridbench gen --family random --percent 20 "${common[@]}"
./gridbench gen --family maze --corridor 2 "${common[@]}"
./gridbench gen --family rooms --room 16 "${common[@]}"
