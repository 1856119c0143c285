#!/usr/bin/env bash
# clean_tree.sh - `make report`, `make plots` and the commands a user runs
# from a checkout write nothing into the source tree: `git status
# --porcelain` is the same before and after (compared, not required empty:
# CI's clone is clean, a developer's may not be).  Outputs go to results/
# (git-ignored) by default.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skip clean_tree/git_status "not a git checkout"
    exit 0
fi
if ! command -v gnuplot >/dev/null || ! command -v pdfunite >/dev/null; then
    skip clean_tree/git_status "no gnuplot or pdfunite"
    exit 0
fi
GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP")
status() { git status --porcelain --untracked-files=all; }
before=$(status)

# unchanged CMD...: the command's exit status is not the point; the tree is
unchanged() {
    local name=$1; shift
    "$@" >"$TMP/out" 2>&1
    local after; after=$(status)
    if [ "$after" = "$before" ]; then pass "clean_tree/$name"
    else fail "clean_tree/$name" "$(diff <(echo "$before") <(echo "$after") | grep '^>' | head -5)"; fi
}

# The Makefile's own recipes, printed by make -n (-o: never rebuild
# gemmprof from a test) and run here; the smallest data folder keeps it
# quick, every folder runs the same loop.
D=reports/data/h200x2/
recipe() {
    make -s -n -o "$(dirname "$GP")/gemmprof" "$1" DATA=$D BIN="$(dirname "$GP")" >"$TMP/$1.sh"
}
recipe report && recipe plots || { fail clean_tree/make_recipes "make -n failed"; exit 0; }
unchanged make_report bash -e "$TMP/report.sh"
[ -s results/reports/h200x2/report.pdf ] && pass clean_tree/make_report_in_results ||
    fail clean_tree/make_report_in_results "no results/reports/h200x2/report.pdf: $(tail -3 "$TMP/out")"
unchanged make_plots bash -e "$TMP/plots.sh"
unchanged plot_default_out "$GP" plot tests/fixtures/run-fixture.csv \
    --ceilings tests/fixtures/ceilings-fixture.csv --charts roofline
unchanged diff "$GP" diff tests/fixtures/diff/base.csv tests/fixtures/diff/spill.csv
unchanged diff_json "$GP" diff tests/fixtures/diff/base.csv tests/fixtures/diff/spill.csv --format json
# a run (without a GPU it stops at the GPU; with one it writes results/)
unchanged run "$GP" --kernel naive --size 64 --metrics none --quiet
