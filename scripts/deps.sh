#!/usr/bin/env bash
# scripts/deps.sh -- install the Debian packages gridbench needs, if missing.
#
#   build-essential   gcc, make (C11 build)
#   g++               c++ and libstdc++ for `gridbench gppc build` (GPPC
#                     entries are C++; build-essential brings it, named here
#                     so that a slimmer base image still gets it)
#   libcriterion-dev  the test framework (make test)
#   gnuplot-nox       plots (make report)
#   hyperfine         whole-process timing (make report)
#   chromium          renders report.html headless: every image checked, and
#                     the screenshot report.png (make report, make test)
#   curl, unzip       download and unpack the Moving AI archives (make datasets)
#   zip               build the zip fixtures of the dataset tests (make test)
#   python3           the reference external solver client (make test)
#   libtext-csv-perl  Text::CSV for scripts/csv-cut.pl and csv-scen-check.pl
#                     (make report reads two columns and checks --csv with
#                     them): map names may hold ',', '"' or newlines, which
#                     a hand-made CSV regex got wrong (issue #26)
#   pkg-config        the installed-library test (make test)
#
# Installs only what dpkg does not already have; uses sudo when not root.
# Extra packages can be named on the command line (e.g. valgrind for
# `make bench CALLGRIND=1`, clang for the sanitizer/fuzz builds).
set -euo pipefail

want=(build-essential g++ make libcriterion-dev gnuplot-nox hyperfine chromium curl unzip zip python3 pkg-config
      libtext-csv-perl "$@")
missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all packages present (${want[*]})" >&2
    exit 0
fi
SUDO=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
