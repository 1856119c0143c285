#!/usr/bin/env bash
# arch.sh - every architecture of this build, one test each: the compiler's
# own report (nvcc -Xptxas -v, kept beside each object) shows real code for
# every kernel whose ladder.def `needs` the architecture has, and an empty
# kernel naming that feature for every other (scripts/arch-check.awk).  The
# default build on a machine without a GPU has every supported
# architecture, so CI checks them all from one build.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
B=${GEMMPROF_BUILD:-$root/build}
if [ ! -r "$B/gen/arch.txt" ]; then
    fail arch/build "no $B/gen/arch.txt: build first (make), or set GEMMPROF_BUILD"
    exit 0
fi
# launcher -> the .cu file that defines it
grep -o '^extern "C" int gp_[a-z0-9_]*(' "$root"/kernels/*.cu |
    sed -E 's|^.*/(kernels/[^:]*):extern "C" int (gp_[a-z0-9_]*)\($|\2 \1|' >"$TMP/launchers"
mapfile -t reports < <(find "$B" -name '*.cu.o.ptxas' | sort)
awk -v codes="$(cat "$B/gen/arch.txt")" -f "$root/scripts/arch-check.awk" \
    "$root/src/arch/arch.h" "$root/kernels/ladder.def" "$TMP/launchers" "${reports[@]}"

# The check can fail: a table that says the cp.async rung needs wgmma
# (sm_90a only) must be refuted by every SASS architecture of the build.
sed 's/^GP_RUNG(cp_async, *\(GP_FP32, *gp_sgemm_cp_async, *\)CP_ASYNC,/GP_RUNG(cp_async, \1WGMMA,/' \
    "$root/kernels/ladder.def" >"$TMP/ladder.def"
out=$(awk -v codes="$(cat "$B/gen/arch.txt")" -f "$root/scripts/arch-check.awk" \
    "$root/src/arch/arch.h" "$TMP/ladder.def" "$TMP/launchers" "${reports[@]}")
nsass=$(tr ' ' '\n' <"$B/gen/arch.txt" | grep -c '^sm_[0-9]*$')
if cmp -s "$TMP/ladder.def" "$root/kernels/ladder.def"; then
    fail arch/check_refutes_a_wrong_table "the sed found no cp_async line to change"
elif [ "$(grep -c '^FAIL arch/sm_.*sgemm_11_cp_async' <<<"$out")" = "$nsass" ]; then
    pass arch/check_refutes_a_wrong_table
else
    fail arch/check_refutes_a_wrong_table "wanted $nsass FAIL lines naming sgemm_11_cp_async: $out"
fi
