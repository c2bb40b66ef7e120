#!/usr/bin/env bash
# check-viewer.sh -- load a search viewer page of `gridbench trace`
# (docs/trace.md) in headless Chromium and print what its self-test saw.
#
# The page runs its self-test when its URL ends in #selftest: it records
# every error and console.error from the start, steps 10 expansions and
# compares the drawn pixels before and after, seeks to the end and counts
# every panel, plays 120 frames and times them, and writes the result as
# JSON into the attribute data-gb-selftest of <body>.  `chromium
# --headless --dump-dom` prints the DOM after loading; this script prints
# that JSON on one line, and exits 0 when the self-test passed ("ok":
# no error, and stepping changed the picture).  The counts in the JSON
# ("counts": per panel expanded, generated, open, closed at the end, and
# endExpanded, the trace's own expanded=) are for the caller to compare
# (tests/test_trace.c compares them with gridbench run's CSV).
#
# Exit status: 0 passed; 1 the self-test failed (the JSON says how); 2 bad
# usage; 3 Chromium not found (the Debian package chromium; $GB_CHROMIUM
# names another binary); 4 Chromium failed or printed no result.
set -euo pipefail

PROG=check-viewer.sh
say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
if [ "$#" -ne 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    echo "usage: scripts/check-viewer.sh PAGE.html   (a page of \`gridbench trace\`)" >&2
    [ "$#" -eq 1 ] && exit 0
    exit 2
fi
PAGE=$1
[ -f "$PAGE" ] || { say "expected a readable page, found none at '$PAGE'"; exit 2; }
CHROMIUM=${GB_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ] || ! [ -x "$CHROMIUM" ]; then
    say "chromium not found: install the Debian package chromium (sudo apt-get install chromium)"
    exit 3
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gb-check-viewer.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
url="file://$(readlink -f -- "$PAGE" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/#/%23/g' -e 's/?/%3F/g')#selftest"
# root needs --no-sandbox; a private profile; no background traffic (the
# machine has no network)
out=$(timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size=1400,900 --virtual-time-budget=30000 \
    --dump-dom "$url" 2>"$work/err") || {
    say "chromium failed on $PAGE (exit $?): $(tail -n 3 "$work/err" | tr '\n' ' ')"
    exit 4
}
json=$(printf '%s' "$out" | grep -o 'data-gb-selftest="[^"]*"' | head -n 1 |
    sed -e 's/^data-gb-selftest="//' -e 's/"$//' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' -e 's/&lt;/</g' -e 's/&gt;/>/g')
if [ -z "$json" ]; then
    say "the page printed no self-test result (not a page of gridbench trace, or it did not finish loading)"
    exit 4
fi
printf '%s\n' "$json"
case $json in
*'"ok":true'*) exit 0 ;;
*) say "$PAGE: the viewer's self-test failed (see the JSON above)"; exit 1 ;;
esac
