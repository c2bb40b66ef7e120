#!/usr/bin/env bash
# check-html.sh -- render a report page in headless Chromium (the Debian
# package chromium) and check that every <img> of it loaded: a broken
# reference (a missing file, a data: URI that is not an image) is named
# and fails the check.  Optionally keeps a screenshot of the page.
#
# How: the page itself has no JavaScript and must keep none, so the check
# runs on a copy in a temporary folder: the copy gets a <base href> (its
# relative references resolve as the original's would) and, at its end, a
# small script that waits for the load event and writes, into an attribute
# of <body>, the number of images and the source of each image whose
# naturalWidth is 0 (the browser could not decode it).  `chromium
# --headless --dump-dom` prints the DOM after loading; the attribute is
# read back from that, with the page's height at the screenshot's width.
# The screenshot (--screenshot) is taken of the original page, not of the
# copy, in a window as tall as the whole page (up to MAX_H pixels; a
# longer page is cut there, and the check says so), unless --size says
# otherwise.
#
# Exit status: 0 every image loaded; 1 an image is broken (each named on
# stderr), or the page has none with --min-images; 2 bad usage; 3 Chromium
# not found (install the Debian package chromium; $GB_CHROMIUM names
# another binary); 4 Chromium failed or printed no verdict.
set -euo pipefail

PROG=check-html.sh
say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
usage() {
    cat <<'EOF'
usage: scripts/check-html.sh [--screenshot FILE.png] [--size WxH] [--min-images N] PAGE.html

Render PAGE.html in headless Chromium and check that every image loads.
  --screenshot FILE  also save a screenshot of the page (PNG)
  --size WxH         window size of the screenshot (default: 1280 wide, as tall
                     as the whole page, at most 30000)
  --min-images N     fail unless the page has at least N images (default 0)
Exit status: 0 all images loaded; 1 a broken image; 2 bad usage;
3 chromium not installed ($GB_CHROMIUM, else chromium on $PATH); 4 chromium failed.
EOF
}

SHOT=
SIZE=
WIDTH=1280
MAX_H=30000
MIN=0
PAGE=
while [ "$#" -gt 0 ]; do
    case $1 in
    --screenshot) [ "$#" -ge 2 ] || { usage >&2; exit 2; }; SHOT=$2; shift 2 ;;
    --size) [ "$#" -ge 2 ] && [[ $2 =~ ^[0-9]+x[0-9]+$ ]] || { say "--size: expected WxH"; exit 2; }; SIZE=$2; shift 2 ;;
    --min-images) [ "$#" -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || { say "--min-images: expected a count"; exit 2; }; MIN=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) usage >&2; say "expected an option listed above, found '$1'"; exit 2 ;;
    *) [ -z "$PAGE" ] || { say "expected one page, found a second: '$1'"; exit 2; }; PAGE=$1; shift ;;
    esac
done
[ -n "$PAGE" ] || { usage >&2; exit 2; }
[ -f "$PAGE" ] || { say "expected a readable page, found none at '$PAGE'"; exit 2; }

CHROMIUM=${GB_CHROMIUM:-}
if [ -z "$CHROMIUM" ]; then
    CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
fi
if [ -z "$CHROMIUM" ] || ! [ -x "$CHROMIUM" ]; then
    say "chromium not found${GB_CHROMIUM:+ (GB_CHROMIUM=$GB_CHROMIUM)}: install the Debian package chromium (sudo apt-get install chromium)"
    exit 3
fi

abs=$(readlink -f -- "$PAGE")
dir=$(dirname -- "$abs")
work=$(mktemp -d "${TMPDIR:-/tmp}/gb-check-html.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
# file:// URL of the page's folder (percent-encode what a URL cannot hold raw)
urlpath() { printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/#/%23/g' -e 's/?/%3F/g' -e 's/"/%22/g'; }
base="file://$(urlpath "$dir")/"

check="$work/check.html"
{
    printf '<base href="%s">\n' "$base"
    cat -- "$abs"
    cat <<'EOF'
<script>
window.addEventListener('load', function () {
  var bad = [], n = 0;
  for (var i = 0; i < document.images.length; i++) {
    var im = document.images[i];
    n++;
    if (!(im.complete && im.naturalWidth > 0)) bad.push(encodeURIComponent(im.getAttribute('src').slice(0, 80)));
  }
  var h = Math.max(document.documentElement.scrollHeight, document.body.scrollHeight);
  document.body.setAttribute('data-gbcheck', 'height=' + Math.ceil(h) + ' images=' + n + ' broken=' + bad.length + ' ' + bad.join(' '));
});
</script>
EOF
} >"$check"

# root needs --no-sandbox; a private profile so that parallel runs do not share a lock
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run
       --hide-scrollbars --user-data-dir="$work/profile" --virtual-time-budget=10000)
layout=${SIZE:-${WIDTH}x2400}   # the height is measured at the screenshot's width
out=$(timeout 120 "$CHROMIUM" "${flags[@]}" --window-size="${layout/x/,}" --dump-dom "file://$(urlpath "$check")" 2>"$work/err") || {
    say "chromium failed on $PAGE (exit $?): $(tail -n 3 "$work/err" | tr '\n' ' ')"
    exit 4
}
verdict=$(printf '%s' "$out" | grep -o 'data-gbcheck="[^"]*"' | head -n 1 | sed 's/^data-gbcheck="//; s/"$//')
if [ -z "$verdict" ]; then
    say "chromium printed no verdict for $PAGE (the page did not finish loading?)"
    exit 4
fi
read -r height nimg nbad rest <<<"$verdict"
height=${height#height=}
nimg=${nimg#images=}
nbad=${nbad#broken=}

cut=
if [ -n "$SHOT" ] && [ -z "$SIZE" ]; then   # the whole page
    [[ $height =~ ^[0-9]+$ ]] && [ "$height" -gt 0 ] || height=2400
    if [ "$height" -gt "$MAX_H" ]; then
        cut=" (the top $MAX_H px of $height)"
        height=$MAX_H
    fi
    SIZE=${WIDTH}x$height
fi
if [ -n "$SHOT" ]; then
    shot_abs=$(readlink -f -- "$(dirname -- "$SHOT")")/$(basename -- "$SHOT")
    timeout 120 "$CHROMIUM" "${flags[@]}" --window-size="${SIZE/x/,}" --screenshot="$shot_abs" \
        "file://$(urlpath "$abs")" >/dev/null 2>"$work/err" && [ -s "$shot_abs" ] || {
        say "chromium could not take the screenshot $SHOT: $(tail -n 3 "$work/err" | tr '\n' ' ')"
        exit 4
    }
fi

if [ "$nbad" != 0 ]; then
    say "$PAGE: $nbad of $nimg images did not load in Chromium:"
    for s in $rest; do
        printf '  %s\n' "$(printf '%b' "${s//%/\\x}")" >&2
    done
    exit 1
fi
if [ "$nimg" -lt "$MIN" ]; then
    say "$PAGE: expected at least $MIN images, found $nimg"
    exit 1
fi
say "$PAGE: all $nimg images loaded in Chromium${SHOT:+; screenshot $SHOT, ${SIZE/x/ x } px$cut}"
exit 0
