#!/usr/bin/env bash
# fetch.sh -- download Moving AI benchmark files named in datasets/sets.tsv,
# verify each one's SHA-256, and install it atomically.
#
# Manifest (sets.tsv, next to this script): one file per line,
#     <set> TAB <relative path> TAB <sha256>
# e.g. "dao<TAB>dao/arena.map<TAB>9887c3...".  Lines that are empty or start
# with '#' are ignored.
#
# For every file of the requested sets, in manifest order:
#   - DEST/<relative path> already present with the right hash: skipped;
#   - otherwise BASE/<relative path> is downloaded with curl (which also
#     reads file:// URLs) to DEST/<relative path>.part.<pid>, its SHA-256
#     is checked with sha256sum, and only then renamed into place.  A
#     failed download or a hash mismatch removes the partial file (and any
#     directory this run created that is left empty) and stops with an
#     error naming the file, the expected and the found hash.
#
# BASE: --base URL, else $GB_DATASET_BASE, else the official Moving AI
# benchmark site.  NOTE: the official site publishes each set as zip
# archives (<set>-map.zip, <set>-scen.zip), not file by file, so the
# default BASE only works if it is ever laid out per file.  The per-file
# layout here is the layout of the project's reference copies
# (../shared/movingai); point --base at any mirror with that layout, e.g.
#     datasets/fetch.sh --base "file://$PWD/../shared/movingai" all
#
# Exit status: 0 done; 64 bad usage; 65 hash mismatch; 69 curl or
# sha256sum missing; 73 cannot create DEST; 74 download failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
manifest=$here/sets.tsv
official=https://movingai.com/benchmarks
base=${GB_DATASET_BASE:-$official}
dest=$here/movingai

usage() {
    cat <<EOF
usage: datasets/fetch.sh [--base URL] [--dest DIR] SET... | all

Download the Moving AI benchmark files of each SET listed in
datasets/sets.tsv, verify their SHA-256 and install them under
DIR/<relative path>.  Files already present with the right hash are skipped.

sets: $(sets_list)

  --base URL   where to download from: URL/<relative path>, e.g.
               URL/dao/arena.map (default: \$GB_DATASET_BASE, else
               $official)
  --dest DIR   where to install (default: datasets/movingai, git-ignored)
  -h, --help   this text

The official site publishes every set as zip archives, not file by file;
the per-file layout expected here is that of the reference copies, so
--base can point at any mirror with that layout, for example:

  datasets/fetch.sh --base "file://\$PWD/../shared/movingai" all
  datasets/fetch.sh --dest /tmp/movingai dao mazes

Exit status: 0 done; 64 bad usage; 65 hash mismatch; 69 curl or sha256sum
missing; 73 cannot create DEST; 74 download failed.
EOF
}

die() {
    local code=$1
    shift
    printf 'fetch.sh: %s\n' "$*" >&2
    exit "$code"
}

# Set names in manifest order, comma-separated.
sets_list() {
    if [[ -r $manifest ]]; then
        awk -F'\t' '!/^#/ && NF >= 3 && !seen[$1]++ { printf "%s%s", sep, $1; sep = ", " }' \
            "$manifest"
    fi
}

hash_of() {
    sha256sum -- "$1" | cut -d' ' -f1
}

# Cleanup state for a failed or interrupted download.
partial=
created_dirs=()
cleanup() {
    if [[ -n $partial ]]; then rm -f -- "$partial"; fi
    local i
    for ((i = ${#created_dirs[@]} - 1; i >= 0; i--)); do
        rmdir -- "${created_dirs[i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT

# mkdir -p that remembers which directories it created.
make_dir() {
    local d=$1 missing=()
    while [[ ! -d $d ]]; do
        missing+=("$d")
        d=$(dirname -- "$d")
    done
    local i
    for ((i = ${#missing[@]} - 1; i >= 0; i--)); do
        mkdir -- "${missing[i]}" 2>/dev/null \
            || die 73 "${missing[i]}: expected a directory that can be created, found an error"
        created_dirs+=("${missing[i]}")
    done
}

want=()
while (($# > 0)); do
    case $1 in
        -h | --help) usage; exit 0 ;;
        --base) (($# >= 2)) || die 64 "--base: expected a URL, found none"; base=$2; shift 2 ;;
        --base=*) base=${1#--base=}; shift ;;
        --dest) (($# >= 2)) || die 64 "--dest: expected a directory, found none"; dest=$2; shift 2 ;;
        --dest=*) dest=${1#--dest=}; shift ;;
        --) shift; want+=("$@"); break ;;
        -*) die 64 "expected an option listed by --help, found '$1'" ;;
        *) want+=("$1"); shift ;;
    esac
done

[[ -r $manifest ]] || die 66 "$manifest: expected a readable manifest, found none"
known=$(sets_list)
((${#want[@]} > 0)) || die 64 "expected a set ($known) or all, found none (see --help)"
[[ -n $base ]] || die 64 "--base: expected a URL, found an empty string"
[[ -n $dest ]] || die 64 "--dest: expected a directory, found an empty string"
command -v curl >/dev/null || die 69 "expected curl on PATH, found none"
command -v sha256sum >/dev/null || die 69 "expected sha256sum on PATH, found none"

declare -A selected=()
for s in "${want[@]}"; do
    if [[ $s == all ]]; then
        IFS=', ' read -r -a all_sets <<<"$known"
        for a in "${all_sets[@]}"; do selected[$a]=1; done
    elif [[ ", $known, " == *", $s, "* ]]; then
        selected[$s]=1
    else
        die 64 "expected a set ($known) or all, found '$s'"
    fi
done

fetched=0 skipped=0
while IFS=$'\t' read -r set rel sha rest; do
    [[ -z $set || $set == \#* ]] && continue
    [[ -n ${selected[$set]:-} ]] || continue
    [[ -n $rel && ${#sha} -eq 64 && -z ${rest:-} ]] \
        || die 65 "$manifest: expected '<set> TAB <path> TAB <sha256>', found a line for '$set'"
    target=$dest/$rel
    if [[ -f $target ]]; then
        have=$(hash_of "$target")
        if [[ $have == "$sha" ]]; then
            printf 'fetch.sh: %s: present, sha256 ok, skipped\n' "$rel" >&2
            skipped=$((skipped + 1))
            continue
        fi
        printf 'fetch.sh: %s: present with sha256 %s, expected %s: downloading again\n' \
            "$rel" "$have" "$sha" >&2
    fi
    make_dir "$(dirname -- "$target")"
    url=${base%/}/$rel
    partial=$target.part.$$
    if ! curl --fail --silent --show-error --location --retry 2 --output "$partial" -- "$url"; then
        die 74 "$rel: expected a download from $url, found a curl error (see above)"
    fi
    got=$(hash_of "$partial")
    if [[ $got != "$sha" ]]; then
        die 65 "$rel: expected sha256 $sha, found $got (downloaded from $url)"
    fi
    mv -f -- "$partial" "$target"
    partial=
    created_dirs=()
    printf 'fetch.sh: %s: fetched, sha256 ok\n' "$rel" >&2
    fetched=$((fetched + 1))
done <"$manifest"

printf 'fetch.sh: %d fetched, %d already present, into %s\n' "$fetched" "$skipped" "$dest" >&2
