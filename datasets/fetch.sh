#!/usr/bin/env bash
# fetch.sh -- install official Moving AI benchmark sets from their zip
# archives: download, check against a lock file, unpack, count, and put
# each set in place atomically.
#
# Data:
#   TABLE (datasets/sets.tsv): one set per line,
#       <set> TAB <maps> TAB <scens> TAB <archive> [<archive>...]
#   the archives are paths under BASE (e.g. dao/dao-map.zip), <maps> and
#   <scens> the number of .map and .scen files they hold together; an
#   optional fifth column <MiB> caps what each archive may unpack to.
#   LOCK (datasets/sets.lock): the SHA-256 of every archive ever installed,
#   one "<sha256>  <archive>" line each (sha256sum's format), meant to be
#   committed.  Trust on first use: an archive without a line is accepted
#   and its line is added; an archive with a line must match it.
#   DEST/<set>/ (default datasets/<set>/): the set's .map and .scen files,
#   flat (archive subdirectories dropped, so that every scenario finds its
#   map next to it), plus .gb-fetch: the "<sha256>  <archive>" lines the
#   set was installed from.
#
# Invariants:
#   - DEST/<set>/ is either absent, the previous complete install, or the
#     new complete install: a set is assembled in DEST/.fetch.<set>.XXXXXX
#     and renamed into place only after every archive matched the lock and
#     the counts matched the table.  A failure or an interrupt removes the
#     temporary directory and leaves DEST/<set>/ and LOCK as they were.
#   - LOCK only gains lines, and only for archives of a set that passed
#     every check; it is rewritten through a temporary file and a rename.
#   - A directory DEST/<set>/ without .gb-fetch was not made here and is
#     never replaced.
#   - Nothing is unpacked from an archive beyond its caps (check_size): at
#     most 2 x (<maps> + <scens>) + 64 entries, <MiB> MiB in all (default
#     1024: the official sets unpack to some 100 MiB each) and 64 MiB per
#     file (the largest official map is about 1 MiB).  The listing is
#     checked first, then what the archive really inflates to (streamed,
#     not written: a listing can lie), and unzip runs under ulimit -f.
#
# A set already installed from archives whose hashes are the locked ones
# is skipped without a download (--force downloads and checks it again).
# To accept a re-published archive, delete its line from LOCK: the next
# fetch records the new hash.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_MIB=1024        # what an archive may unpack to, without a fifth column
FILE_MIB=64             # what one file of an archive may unpack to
official=https://movingai.com/benchmarks
base=${GB_DATASET_BASE:-$official}
table=$here/sets.tsv
lock=$here/sets.lock
dest=$here
force=0
list=0
help=0

usage() {
    cat <<EOF
usage: datasets/fetch.sh [OPTIONS] SET... | all
       datasets/fetch.sh --list

Download the zip archives of each SET named in the set table, check each
archive's SHA-256 against the lock file (the first fetch of an archive
writes its line: trust on first use), unpack, check the number of .map and
.scen files against the table, and install the set's files flat into
DEST/SET/, atomically: on any error nothing is installed.

sets: $(set_names)

  --base URL    where the archives are: URL/<archive>, e.g.
                URL/dao/dao-map.zip (default: \$GB_DATASET_BASE, else
                $official); file:// URLs work: offline, copy
                the archives into a folder as <set>/<archive>.zip and
                pass --base file:///that/folder
  --dest DIR    install into DIR/SET/ (default: datasets/, git-ignored)
  --lock FILE   the lock file (default: datasets/sets.lock; commit it)
  --table FILE  the set table (default: datasets/sets.tsv)
  --force       download and check sets that are already installed
  --list        print the table: set, maps, scens, archives, lock status
  -h, --help    this text

Examples:
  make datasets SETS="street dao"
  datasets/fetch.sh --base https://mirror.example.org/movingai maze
  datasets/fetch.sh --list

Each archive may unpack to at most the table's optional fifth column in
MiB (default $DEFAULT_MIB), 64 MiB per file, and 2 x (maps + scens) + 64
entries: checked from its listing, then from what it really inflates to,
before anything is unpacked.

Exit status: 0 done; 64 bad usage or unknown set; 65 bad data: an archive
differs from its lock line, is not a zip, unpacks past its caps, or holds
other counts or clashing file names than the table says (nothing
installed); 66 the table
is missing; 69 curl, unzip or sha256sum missing; 73 DEST/SET cannot be
created or is a directory fetch.sh did not make; 74 download failed; 78 a
malformed line in the table or the lock.
EOF
}

die() {
    local code=$1
    shift
    printf 'fetch.sh: %s\n' "$*" >&2
    exit "$code"
}

say() { printf 'fetch.sh: %s\n' "$*" >&2; }

# ---- the set table -------------------------------------------------------
names=()                # set names in table order
declare -A t_line=() t_maps=() t_scens=() t_arch=() t_mib=()

read_table() {
    [[ -r $table ]] || die 66 "$table: expected a readable set table, found none"
    local n=0 line s m c a mib rest p
    while IFS= read -r line || [[ -n $line ]]; do
        n=$((n + 1))
        [[ -z $line || $line == \#* ]] && continue
        IFS=$'\t' read -r s m c a mib rest <<<"$line"
        local ok=1
        [[ $s =~ ^[a-z0-9][a-z0-9._-]*$ && $s != all ]] || ok=0
        [[ ${m:-} =~ ^[0-9]+$ && ${c:-} =~ ^[0-9]+$ && -n ${a:-} && -z ${rest:-} ]] || ok=0
        [[ -z ${mib:-} || $mib =~ ^[1-9][0-9]{0,6}$ ]] || ok=0
        for p in ${a:-}; do
            [[ $p =~ ^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*\.zip$ && /$p/ != */../* ]] || ok=0
        done
        ((ok)) || die 78 "$table:$n: expected '<set> TAB <maps> TAB <scens> TAB <archive.zip> ... [TAB <MiB>]', found '$line'"
        [[ -z ${t_line[$s]:-} ]] \
            || die 78 "$table:$n: expected a new set name, found '$s' again (first on line ${t_line[$s]})"
        names+=("$s")
        t_line[$s]=$n t_maps[$s]=$m t_scens[$s]=$c t_arch[$s]=$a t_mib[$s]=${mib:-$DEFAULT_MIB}
    done <"$table"
    ((${#names[@]} > 0)) || die 78 "$table: expected at least one set, found none"
}

set_names() {
    local IFS=' '
    if ((${#names[@]} > 0)); then
        echo "${names[*]}"
    elif [[ -r $table ]]; then   # --help: names without checking the table
        awk -F'\t' '!/^#/ && NF >= 4 { printf "%s%s", sep, $1; sep = " " }' "$table"
    else
        echo "(none: $table is missing)"
    fi
}

# ---- the lock file -------------------------------------------------------
declare -A l_sha=() l_line=()

read_lock() {
    l_sha=() l_line=()
    [[ -e $lock ]] || return 0
    [[ -r $lock ]] || die 66 "$lock: expected a readable lock file, found one that cannot be read"
    local n=0 line sha path
    while IFS= read -r line || [[ -n $line ]]; do
        n=$((n + 1))
        [[ -z $line || $line == \#* ]] && continue
        if [[ $line =~ ^([0-9a-f]{64})\ \ (.+)$ ]]; then
            sha=${BASH_REMATCH[1]} path=${BASH_REMATCH[2]}
        else
            die 78 "$lock:$n: expected '<sha256>  <archive>', found '$line'"
        fi
        [[ -z ${l_line[$path]:-} ]] \
            || die 78 "$lock:$n: expected one line per archive, found '$path' again (first on line ${l_line[$path]})"
        l_sha[$path]=$sha l_line[$path]=$n
    done <"$lock"
}

# Append "<sha256>  <archive>" lines to LOCK through a temporary file.
append_lock() {
    (($# > 0)) || return 0
    local dir tmp
    dir=$(dirname -- "$lock")
    tmp=$(mktemp "$dir/.sets.lock.XXXXXX" 2>/dev/null) \
        || die 73 "$lock: expected a writable directory for the lock file, found none"
    cleanup_files+=("$tmp")
    if [[ -e $lock ]]; then
        cat -- "$lock" >"$tmp"
    else
        printf '%s\n' \
            "# SHA-256 of each Moving AI archive, recorded by datasets/fetch.sh on its" \
            "# first download (trust on first use); later downloads must match." \
            "# Commit this file.  To accept a re-published archive, delete its line." >"$tmp"
    fi
    printf '%s\n' "$@" >>"$tmp"
    chmod 644 "$tmp"
    mv -f -- "$tmp" "$lock"
}

# ---- cleanup -------------------------------------------------------------
cleanup_files=()
work=         # DEST/.fetch.<set>.XXXXXX of the set being assembled
moved_old=    # DEST/<set> moved aside into $work/old, not yet replaced
cleanup() {
    if [[ -n $moved_old && ! -e $moved_old && -d $work/old ]]; then
        mv -- "$work/old" "$moved_old" 2>/dev/null || true
    fi
    [[ -n $work ]] && rm -rf -- "$work"
    local f
    for f in "${cleanup_files[@]}"; do rm -f -- "$f"; done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

hash_of() { sha256sum -- "$1" | cut -d' ' -f1; }

# check_size SET ARCHIVE FILE: die 65 unless FILE (a zip) stays within the
# set's caps (file head), before anything of it is unpacked: first its
# listing (entries, declared sizes), then the bytes it really inflates to,
# streamed through head -c and counted, never written.
check_size() {
    local s=$1 a=$2 file=$3 listing n total big real
    local max_n=$((2 * (t_maps[$s] + t_scens[$s]) + 64)) max_b=$((t_mib[$s] * 1048576))
    local max_f=$((FILE_MIB * 1048576))
    ((max_f <= max_b)) || max_f=$max_b
    if ! listing=$(unzip -l -- "$file" </dev/null 2>&1); then
        printf '%s\n' "$listing" >&2
        die 65 "$a: expected a zip archive, found one unzip cannot read (see above); nothing installed"
    fi
    read -r n total big < <(printf '%s\n' "$listing" | awk '/^-----/ { d++; next }
        d == 1 { n++; t += $1; if ($1 > m) m = $1 } END { printf "%d %.0f %.0f\n", n, t, m }')
    local where="$table:${t_line[$s]}"
    ((n <= max_n)) || die 65 "$where: expected at most $max_n entries in $a (2 x the $((t_maps[$s] + t_scens[$s])) files of $s + 64), found $n in its listing; nothing installed"
    ((total <= max_b)) || die 65 "$where: expected $a to unpack to at most ${t_mib[$s]} MiB, found $total bytes in its listing; nothing installed"
    ((big <= max_f)) || die 65 "$a: expected no file over $((max_f / 1048576)) MiB unpacked, found one of $big bytes in its listing; nothing installed"
    real=$(set +o pipefail; unzip -p -- "$file" </dev/null 2>/dev/null | head -c $((max_b + 1)) | wc -c)
    ((real <= max_b)) || die 65 "$where: expected $a to unpack to at most ${t_mib[$s]} MiB, found more when inflated (its listing says $total bytes: it lies); nothing installed"
}

# "<archive>:<member>" for a file unpacked to $work/unzip/<i>/<member>.
arch_of=()
member() {
    local rel=${1#"$work"/unzip/}
    printf "%s:%s" "${arch_of[${rel%%/*}]}" "${rel#*/}"
}

# True when DEST/<set>/.gb-fetch names exactly the set's archives, each
# with the hash LOCK holds for it.
installed_from_lock() {
    local s=$1 marker=$dest/$1/.gb-fetch a want got line
    [[ -r $marker ]] || return 1
    want=
    for a in ${t_arch[$s]}; do
        [[ -n ${l_sha[$a]:-} ]] || return 1
        want+="${l_sha[$a]}  $a"$'\n'
    done
    got=
    while IFS= read -r line; do got+="$line"$'\n'; done <"$marker"
    [[ $got == "$want" ]]
}

fetch_set() {
    local s=$1 target=$dest/$1
    if [[ -e $target || -L $target ]]; then
        [[ -d $target && ! -L $target && -f $target/.gb-fetch ]] \
            || die 73 "$target: expected a set installed by fetch.sh (with a .gb-fetch file), found something else; move it away first"
        if ((!force)) && installed_from_lock "$s"; then
            say "$s: installed from the archives in $(basename -- "$lock"), skipped (--force to check again)"
            return 0
        fi
    fi
    work=$(mktemp -d "$dest/.fetch.$s.XXXXXX" 2>/dev/null) \
        || die 73 "$dest: expected a directory where a set can be assembled, found none"
    mkdir -- "$work/zip" "$work/unzip" "$work/set"

    local a i=0 url file got new=() marker=()
    for a in ${t_arch[$s]}; do
        i=$((i + 1))
        arch_of[i]=$a
        url=${base%/}/$a
        file=$work/zip/$i.zip
        if ! curl --fail --silent --show-error --location --retry 2 \
            --proto '=http,https,file' --output "$file" -- "$url"; then
            die 74 "$a: expected a download from $url, found a curl error (see above); nothing installed. Offline or blocked? Put the archives in a folder as <set>/<archive>.zip and pass --base file:///that/folder (or set GB_DATASET_BASE; with make: make datasets FETCH_ARGS='--base URL')"
        fi
        got=$(hash_of "$file")
        if [[ -n ${l_sha[$a]:-} ]]; then
            [[ $got == "${l_sha[$a]}" ]] \
                || die 65 "$lock:${l_line[$a]}: expected sha256 ${l_sha[$a]} for $a, found $got (downloaded from $url); nothing installed"
            say "$a: sha256 matches $(basename -- "$lock")"
        else
            new+=("$got  $a")
            say "$a: sha256 $got (new: recorded in $(basename -- "$lock") once the set is installed)"
        fi
        marker+=("$got  $a")
        check_size "$s" "$a" "$file"
        mkdir -- "$work/unzip/$i"
        local rc=0 fmib=$FILE_MIB   # ulimit -f (KiB in bash): no file past the cap, whatever the archive says
        ((t_mib[$s] >= fmib)) || fmib=${t_mib[$s]}
        (ulimit -f $((fmib * 1024)) && exec unzip -qq -o "$file" -d "$work/unzip/$i" </dev/null >&2) || rc=$?
        ((rc != 128 + 25)) ||
            die 65 "$a: expected no file over $fmib MiB unpacked, found one past it while unpacking; nothing installed"
        ((rc == 0)) || die 65 "$a: expected a zip archive, found one unzip cannot read (see above); nothing installed"
    done

    # Count, then flatten: every .map and .scen straight into the set.
    local f b nm=0 ns=0
    declare -A seen=()
    while IFS= read -r -d '' f; do
        case $f in *.map) nm=$((nm + 1)) ;; *) ns=$((ns + 1)) ;; esac
        b=${f##*/}
        [[ -z ${seen[$b]:-} ]] \
            || die 65 "$s: expected distinct file names, found '$b' twice ($(member "${seen[$b]}") and $(member "$f")); nothing installed"
        seen[$b]=$f
    done < <(find "$work/unzip" -type f \( -name '*.map' -o -name '*.scen' \) \
        ! -name '._*' ! -path '*/__MACOSX/*' -print0)
    if ((nm != t_maps[$s] || ns != t_scens[$s])); then
        die 65 "$table:${t_line[$s]}: expected ${t_maps[$s]} .map and ${t_scens[$s]} .scen files in $s, found $nm and $ns (in ${t_arch[$s]}); nothing installed"
    fi
    for b in "${!seen[@]}"; do mv -- "${seen[$b]}" "$work/set/$b"; done
    printf '%s\n' "${marker[@]}" >"$work/set/.gb-fetch"
    chmod -R u+rwX,go+rX "$work/set"

    # Commit: the lock first (it only gains lines for archives that passed
    # every check), then the set, swapped in with two renames.
    append_lock "${new[@]}"
    read_lock   # the new lines, with their line numbers, for later sets
    if [[ -e $target ]]; then
        moved_old=$target
        mv -- "$target" "$work/old"
    fi
    mv -- "$work/set" "$target"
    moved_old=
    rm -rf -- "$work"
    work=
    say "$s: installed $nm maps and $ns scenarios into $target"
}

# ---- main ----------------------------------------------------------------
want=()
while (($# > 0)); do
    case $1 in
        -h | --help) help=1; shift ;;
        --base) (($# >= 2)) || die 64 "--base: expected a URL, found none"; base=$2; shift 2 ;;
        --base=*) base=${1#--base=}; shift ;;
        --dest) (($# >= 2)) || die 64 "--dest: expected a directory, found none"; dest=$2; shift 2 ;;
        --dest=*) dest=${1#--dest=}; shift ;;
        --lock) (($# >= 2)) || die 64 "--lock: expected a file, found none"; lock=$2; shift 2 ;;
        --lock=*) lock=${1#--lock=}; shift ;;
        --table) (($# >= 2)) || die 64 "--table: expected a file, found none"; table=$2; shift 2 ;;
        --table=*) table=${1#--table=}; shift ;;
        --force) force=1; shift ;;
        --list) list=1; shift ;;
        --) shift; want+=("$@"); break ;;
        -*) die 64 "expected an option listed by --help, found '$1'" ;;
        *) want+=("$1"); shift ;;
    esac
done

if ((help)); then usage; exit 0; fi
read_table
read_lock
[[ -n $base ]] || die 64 "--base: expected a URL, found an empty string"
[[ -n $dest ]] || die 64 "--dest: expected a directory, found an empty string"
[[ -n $lock ]] || die 64 "--lock: expected a file, found an empty string"

if ((list)); then
    ((${#want[@]} == 0)) || die 64 "--list: expected no set names, found '${want[0]}'"
    printf 'set\tmaps\tscens\tlocked\tarchives\n'
    for s in "${names[@]}"; do
        k=0 t=0
        for a in ${t_arch[$s]}; do
            t=$((t + 1))
            [[ -n ${l_sha[$a]:-} ]] && k=$((k + 1))
        done
        printf '%s\t%s\t%s\t%d/%d\t%s\n' "$s" "${t_maps[$s]}" "${t_scens[$s]}" "$k" "$t" "${t_arch[$s]}"
    done
    exit 0
fi

((${#want[@]} > 0)) || die 64 "expected a set name ($(set_names)) or all, found none (see --help)"
selected=()
declare -A picked=()
for s in "${want[@]}"; do
    if [[ $s == all ]]; then
        for a in "${names[@]}"; do
            [[ -n ${picked[$a]:-} ]] || { picked[$a]=1; selected+=("$a"); }
        done
    elif [[ -n ${t_line[$s]:-} ]]; then
        [[ -n ${picked[$s]:-} ]] || { picked[$s]=1; selected+=("$s"); }
    else
        die 64 "expected a set name from $table ($(set_names)) or all, found '$s'"
    fi
done

command -v curl >/dev/null || die 69 "expected curl on PATH, found none (scripts/deps.sh installs it)"
command -v unzip >/dev/null || die 69 "expected unzip on PATH, found none (scripts/deps.sh installs it)"
command -v sha256sum >/dev/null || die 69 "expected sha256sum on PATH, found none"
if [[ ! -d $dest ]]; then
    mkdir -p -- "$dest" 2>/dev/null || die 73 "$dest: expected a directory that can be created, found an error"
fi

for s in "${selected[@]}"; do fetch_set "$s"; done
say "${#selected[@]} set(s) in place under $dest: ${selected[*]}"
