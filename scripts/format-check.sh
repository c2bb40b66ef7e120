#!/usr/bin/env bash
# format-check.sh -- check the formatting of the C lines a branch changed,
# against .clang-format, and only those: the tree is not reformatted
# wholesale (its older lines keep their hand layout; about 10 % of them
# differ from what clang-format would write).
#
#   scripts/format-check.sh [BASE]        report the changed lines clang-format
#                                         would write otherwise; exit 1 if any
#   scripts/format-check.sh --fix [BASE]  rewrite those lines in the work tree
#
# BASE: the commit to compare with (default: the one in .ci/format-base,
# the commit CI compares with; else the merge base with main, else HEAD~1).
# The lines are those of `git diff BASE` in *.c and *.h, the work tree
# included (committed or not), and every line of a new *.c or *.h file
# git does not track yet (it would be checked whole once committed).
# Uses git-clang-format (Debian package clang-format).  Exit status: 0
# formatted; 1 lines to reformat (shown as a diff); 2 bad usage; 3
# clang-format not installed.
set -euo pipefail
PROG=format-check.sh
fix=0
case ${1:-} in
-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
--fix) fix=1; shift ;;
-*) echo "$PROG: expected --fix, --help or a commit, found '$1'" >&2; exit 2 ;;
esac
[ "$#" -le 1 ] || { echo "$PROG: expected at most one commit, found $#" >&2; exit 2; }
cd "$(dirname "$0")/.."
if ! command -v git-clang-format >/dev/null 2>&1 || ! command -v clang-format >/dev/null 2>&1; then
    echo "$PROG: clang-format not found: install the Debian package clang-format" >&2
    exit 3
fi
if [ "$#" -eq 1 ]; then base=$1
elif [ -s .ci/format-base ]; then base=$(cat .ci/format-base)
else base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD~1)
fi
git rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "$PROG: expected a commit, found '$base'" >&2; exit 2; }
mapfile -t new < <(git ls-files --others --exclude-standard -- '*.c' '*.h')
if [ "$fix" = 1 ]; then
    git clang-format --quiet --force --extensions c,h "$base" -- || true
    [ "${#new[@]}" -eq 0 ] || clang-format -i -- "${new[@]}"
    exit 0
fi
out=$(git clang-format --diff --extensions c,h "$base" --) || true
case $out in
""|"no modified files to format"|"clang-format did not modify any files") out= ;;
esac
for f in "${new[@]+"${new[@]}"}"; do
    d=$(clang-format -- "$f" | diff -u --label "a/$f" --label "b/$f" "$f" -) || out+=${out:+$'\n'}$d
done
if [ -z "$out" ]; then
    echo "$PROG: the lines changed since $(git rev-parse --short "$base") are formatted"
    exit 0
fi
printf '%s\n' "$out"
echo "$PROG: the lines above differ from .clang-format; scripts/format-check.sh --fix rewrites them" >&2
exit 1
