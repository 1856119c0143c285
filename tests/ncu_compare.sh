#!/usr/bin/env bash
# ncu_compare.sh - scripts/ncu-compare.sh without a GPU: a fake ncu and a
# fake gemmprof replay the fixtures in tests/fixtures/ncu (a report as ncu
# prints it, with and without NVTX renaming, and a gemmprof run file), so
# the join is checked: launches attributed by NVTX range (mixed is not
# dgemm_mixed), the scrub kernels left out, the timed launch (second half)
# compared, a two-kernel launch summed and time-weighted, thousands
# separators read, an instruction count that differs failing the run,
# --cache-control given to both tools, ncu's report reused; and
# scripts/cache-control-study.sh's tables from those runs.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FX=$ROOT/tests/fixtures/ncu
mkdir -p "$TMP/bin"
cat >"$TMP/bin/ncu" <<FAKE
#!/usr/bin/env bash
echo "ncu GEMMPROF_SCRUB=\${GEMMPROF_SCRUB-unset} \$*" >>"$TMP/calls"
# the fixture's ranges are at 64x32x16: moved to the shape profiled
for a in "\$@"; do [ "\$prev" = -i ] && rep=\$a; prev=\$a; done
case " \$* " in
*" -i "*" --print-nvtx-rename kernel "*) sed "s#/64x32x16#/\$(cat "\$rep")#" "$FX/nvtx.csv"; exit 0 ;;
*" -i "*) cat "$FX/plain.csv"; exit 0 ;;
esac
while [ \$# -gt 0 ]; do
    [ "\$1" = -o ] && out=\$2.ncu-rep
    [ "\$1" = --mnk ] && tr , x <<<"\$2" >"\$out"
    shift
done
FAKE
cat >"$TMP/bin/gemmprof" <<FAKE
#!/usr/bin/env bash
echo "gemmprof GEMMPROF_SCRUB=\${GEMMPROF_SCRUB-unset} \$*" >>"$TMP/calls"
[ "\$1" = --list ] && { printf 'name precision\nwide_tile fp32\ntf32_wgmma tf32\nmixed fp32\n'; exit 0; }
while [ \$# -gt 0 ]; do [ "\$1" = --out ] && cp "$FX/gemmprof.csv" "\$2"; shift; done
FAKE
chmod +x "$TMP/bin/ncu" "$TMP/bin/gemmprof"
cmp() {
    NCU=$TMP/bin/ncu GEMMPROF_BIN=$TMP/bin/gemmprof "$ROOT/scripts/ncu-compare.sh" \
        --mnk 64,32,16 --work "$TMP/w" "$@" >"$TMP/out" 2>"$TMP/err"
}

GEMMPROF_SCRUB=flush cmp --kernel all --cache-control none
rc=$?
pairs=$TMP/w/pairs-64x32x16-none-none.csv
# pair NAME LINE: LINE is in the pairs file
pair() { grep -qxF "$2" "$pairs" && pass "$1" || fail "$1" "no '$2' in $(tr '\n' ' ' <"$pairs" 2>/dev/null)"; }
[ "$rc" = 1 ] && pass ncu_compare/instruction_count_difference_exits_1 ||
    fail ncu_compare/instruction_count_difference_exits_1 "exit $rc: $(head -c 300 "$TMP/err")"
pair ncu_compare/timed_launch_compared "wide_tile,dram__bytes_write.sum,2020000,2000000,1.010"
pair ncu_compare/two_kernels_summed "tf32_wgmma,dram__bytes_write.sum,4000,4000,1.000"
pair ncu_compare/two_kernels_time_weighted "tf32_wgmma,sm__warps_active.avg.pct_of_peak_sustained_active,35,35,1.000"
pair ncu_compare/range_is_not_a_suffix_of_another "mixed,dram__bytes_write.sum,1000,500,2.000"
pair ncu_compare/exact_count_compared "mixed,sm__sass_thread_inst_executed_op_ffma_pred_on.sum,100,101,0.990"
grep -q '^64x32x16: 2 of 12 values outside +-2% (1 of them instruction counts' "$TMP/out" &&
    pass ncu_compare/summary_line || fail ncu_compare/summary_line "$(tail -3 "$TMP/out")"
grep -q '^ncu GEMMPROF_SCRUB=unset --clock-control none --cache-control none .* --cache-control none ' "$TMP/calls" &&
    grep -q '^gemmprof GEMMPROF_SCRUB=flush --kernel wide_tile,tf32_wgmma,mixed --mnk 64,32,16 .*--cache-control none' "$TMP/calls" &&
    pass ncu_compare/cache_control_given_to_both || fail ncu_compare/cache_control_given_to_both "$(cat "$TMP/calls")"

: >"$TMP/calls"
cmp --kernel wide_tile --cache-control none
[ "$?" = 0 ] && grep -q '^# ncu: reusing' "$TMP/out" && ! grep -q -- ' -o ' "$TMP/calls" &&
    pass ncu_compare/ncu_report_reused || fail ncu_compare/ncu_report_reused "$(cat "$TMP/out" "$TMP/calls")"

expect ncu_compare/bad_cache_control 2 "'some' is not all or none" -- \
    "$ROOT/scripts/ncu-compare.sh" --cache-control some
expect ncu_compare/bad_shape 2 "bad shape '64,32'" -- "$ROOT/scripts/ncu-compare.sh" --mnk 64,32

# The study: one table per class, variants side by side, and the summary.
OUT=$TMP/study NCU=$TMP/bin/ncu GEMMPROF_BIN=$TMP/bin/gemmprof \
    "$ROOT/scripts/cache-control-study.sh" --classes square-1024,k-skinny \
    --kernel wide_tile,tf32_wgmma,mixed --variants read,flush:p2 >"$TMP/out" 2>&1
st=$TMP/study/cache-control-study
grep -Eq '^wide_tile +dram__bytes_write.sum +2000000 +1.000 +1.010 +1.010 +1.010$' "$st/k-skinny.txt" &&
    pass ncu_compare/study_table_has_every_variant ||
    fail ncu_compare/study_table_has_every_variant "$(head -c 600 "$st/k-skinny.txt" 2>&1)"
grep -Eq '^square-1024 +flush:p2 +10 of 12 +- +2.000 mixed' "$st/summary.txt" &&
    grep -Eq '^k-skinny +none/none +10 of 12 ' "$st/summary.txt" &&
    pass ncu_compare/study_summary || fail ncu_compare/study_summary "$(cat "$st/summary.txt" "$TMP/out" 2>&1 | head -c 800)"
