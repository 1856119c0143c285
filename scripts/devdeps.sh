#!/usr/bin/env bash
# devdeps.sh - run HERE (a machine with apt), not on the GPU machine: fetch
# cmocka and jansson as .debs and unpack them into .devdeps/{cmocka,jansson}
# (git-ignored), which travel to the GPU machine (no apt there) with the
# device tool's carry: [".devdeps"].  scripts/device-check.sh and the other
# device scripts then build with make CMOCKA=.devdeps/cmocka JANSSON=.devdeps/jansson.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download libcmocka0 libcmocka-dev libjansson4 libjansson-dev >/dev/null 2>&1) ||
    { echo "devdeps: apt-get download failed" >&2; exit 1; }
rm -rf .devdeps; mkdir -p .devdeps/cmocka .devdeps/jansson
for f in "$tmp"/libcmocka*.deb; do dpkg -x "$f" .devdeps/cmocka; done
for f in "$tmp"/libjansson*.deb; do dpkg -x "$f" .devdeps/jansson; done
ls .devdeps/cmocka/usr/include/cmocka.h .devdeps/jansson/usr/include/jansson.h
