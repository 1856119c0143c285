#!/usr/bin/env bash
# plugin_gpu.sh - plugins on a GPU: the example plugin (built with `make
# plugin`) runs, verifies and carries static facts and counters; its
# deliberately wrong kernel is a failed row; a kernel that is refused or
# faults on the GPU is a failed row and the kernels after it still run; a
# launcher that segfaults leaves every earlier row and a row saying so.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)

# field FILE KERNEL COLUMN: COLUMN of KERNEL's row (plain fields only)
field() {   # a CSV reader: a status may hold quoted commas ("C[12,345] ...")
    python3 -c '
import csv, sys
rows = csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))
for r in rows:
    if r["kernel"] == sys.argv[2]:
        print(r.get(sys.argv[3], "no-such-column"))
        break' "$1" "$2" "$3"
}

# want NAME FILE KERNEL COLUMN REGEX
want() {
    local v
    v=$(field "$2" "$3" "$4")
    if [[ $v =~ $5 ]]; then pass "$1"; else fail "$1" "$3 $4 is '$v', wanted /$5/"; fi
}

gpu_or_skip plugin_gpu/example_plugin_runs || exit 0
ulimit -c 0
build() {   # build SRC OUT
    if ! make -s -C "$root" plugin SRC="$1" OUT="$2" >"$TMP/build.log" 2>&1; then
        fail "plugin_gpu/build_$(basename "$1")" "$(tail -5 "$TMP/build.log")"
        exit 1
    fi
}
build examples/plugin/mine.cu "$TMP/libmine.so"
build tests/fixtures/plugins/faults.cu "$TMP/libfaults.so"

# 1. mine verifies with facts and counters, mine_wrong fails, every row written.
csv=$TMP/mine.csv
"$GP" --plugin "$TMP/libmine.so" --kernel mine,mine_wrong,cublas --size 257 --reps 5 \
    --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && pass plugin_gpu/example_plugin_runs ||
    fail plugin_gpu/example_plugin_runs "exit $rc, wanted 1 (mine_wrong fails): $(head -c 400 "$TMP/err")"
want plugin_gpu/example_verifies "$csv" mine verified '^1$'
want plugin_gpu/example_status_ok "$csv" mine status '^ok$'
want plugin_gpu/example_has_register_count "$csv" mine regs_per_thread '^[0-9]+$'
want plugin_gpu/example_has_occupancy "$csv" mine occupancy_theoretical '^[0-9.]+$'
want plugin_gpu/example_has_config "$csv" mine config '^16x16x16$'
want plugin_gpu/example_has_counters "$csv" mine dram__bytes_read.sum '^[0-9]+$'
want plugin_gpu/wrong_kernel_fails_verification "$csv" mine_wrong verified '^0$'
want plugin_gpu/wrong_kernel_status "$csv" mine_wrong status '^verify_failed'
want plugin_gpu/reference_row_present "$csv" cublas verified '^1$'
grep -q '^# plugins: .*libmine.so (plugin .mine., 2 kernels)' "$csv" &&
    pass plugin_gpu/run_file_names_plugin || fail plugin_gpu/run_file_names_plugin

# 2. refused launch and GPU fault: failed rows, and the next kernel still runs
#    (after the runtime's error is cleared and the device reset).
csv=$TMP/faults.csv
"$GP" --plugin "$TMP/libfaults.so" --plugin "$TMP/libmine.so" --size 128 --metrics none \
    --kernel fault_launch_error,fault_illegal_address,mine,cublas --reps 3 \
    --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && pass plugin_gpu/faults_exit_1 ||
    fail plugin_gpu/faults_exit_1 "exit $rc: $(head -c 400 "$TMP/err")"
want plugin_gpu/refused_launch_is_error_row "$csv" fault_launch_error status '^error: launch'
want plugin_gpu/gpu_fault_is_error_row "$csv" fault_illegal_address status '^error: .*illegal'
# After an illegal address the device is reset and the run goes on.  On the
# lent H200 (Firecracker VM, driver 580.159) the context could not be made
# again ("CUDA-capable device(s) is/are busy or unavailable"), so the kernels
# after the fault get rows saying so rather than results: a row either way.
want plugin_gpu/kernel_after_faults_has_a_row "$csv" mine status '^(ok|error: not run: device reset failed)'
want plugin_gpu/reference_after_faults "$csv" cublas verified '^1$'

# 3. a kernel that reads C (fine at beta != 0): at beta = 0 the status says
#    why every element is NaN, on one line of the run file.
csv=$TMP/reads-c.csv
"$GP" --plugin "$TMP/libfaults.so" --kernel fault_reads_c --mnk 129,67,253 --metrics none \
    --reps 3 --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && pass plugin_gpu/reads_c_fails_at_beta_0 ||
    fail plugin_gpu/reads_c_fails_at_beta_0 "exit $rc, wanted 1: $(head -c 400 "$TMP/err")"
grep -q '^fault_reads_c,.*,"verify_failed: 8643 non-finite elements (all); C was NaN-poisoned because BLAS treats C as write-only at beta = 0, so the kernel probably read C",' "$csv" &&
    pass plugin_gpu/reads_c_status_says_c_was_read ||
    fail plugin_gpu/reads_c_status_says_c_was_read "$(grep '^fault_reads_c' "$csv" | head -c 400)"
"$GP" --plugin "$TMP/libfaults.so" --kernel fault_reads_c --mnk 129,67,253 --beta 0.5 \
    --metrics none --reps 3 --out "$TMP/reads-c-beta.csv" >"$TMP/out" 2>"$TMP/err"
want plugin_gpu/reads_c_verifies_at_beta_half "$TMP/reads-c-beta.csv" fault_reads_c verified '^1$'

# 4. a launcher that segfaults: the process dies of it, the rows before it
#    stay, and a row names the crash.
csv=$TMP/segv.csv
"$GP" --plugin "$TMP/libfaults.so" --kernel cublas,fault_segv --size 64 --metrics none \
    --reps 3 --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = $((128 + 11)) ] && pass plugin_gpu/segv_kills_the_run ||
    fail plugin_gpu/segv_kills_the_run "exit $rc, wanted 139 (SIGSEGV)"
want plugin_gpu/rows_before_crash_kept "$csv" cublas verified '^1$'
want plugin_gpu/crash_row_written "$csv" fault_segv status '^error: crashed: SIGSEGV'
grep -q 'fault_segv (.*libfaults.so) crashed the process with SIGSEGV at 64x64x64' "$TMP/err" &&
    pass plugin_gpu/crash_named_on_stderr || fail plugin_gpu/crash_named_on_stderr "$(cat "$TMP/err")"

# 5. --energy: a shape's rows wait until all its kernels are timed, then each
#    gets its window.  Every row has one, in --kernel order ...
csv=$TMP/energy.csv
"$GP" --plugin "$TMP/libmine.so" --kernel mine,cublas --size 256 --metrics none \
    --reps 5 --energy 0.5 --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
order=$(awk -F, '!/^#/ && h++ { printf "%s ", $1 }' "$csv")
if [ "$rc" = 0 ] && [ "$order" = "cublas mine " ]; then
    pass plugin_gpu/energy_rows_in_order
else
    fail plugin_gpu/energy_rows_in_order "exit $rc, rows '$order': $(head -c 400 "$TMP/err")"
fi
if grep -q 'no energy counter' "$TMP/err"; then
    skip plugin_gpu/energy_window_per_row "this GPU has no energy counter"
else
    want plugin_gpu/energy_window_per_row "$csv" mine sustained_ms '^[0-9.]+(e-?[0-9]+)?$'
fi
# ... and a crash before the windows still leaves the held rows, in order.
csv=$TMP/energy-segv.csv
"$GP" --plugin "$TMP/libmine.so" --plugin "$TMP/libfaults.so" --kernel cublas,mine,fault_segv \
    --size 64 --metrics none --reps 3 --energy 0.2 --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
order=$(awk -F, '!/^#/ && h++ { printf "%s ", $1 }' "$csv")
if [ "$rc" = $((128 + 11)) ] && [ "$order" = "cublas mine fault_segv " ]; then
    pass plugin_gpu/energy_crash_keeps_held_rows
else
    fail plugin_gpu/energy_crash_keeps_held_rows "exit $rc, rows '$order'"
fi
want plugin_gpu/energy_held_row_verified "$csv" mine verified '^1$'

# 6. --interleave: a kernel's row carries its reference's median over the
#    launches alternated with its own, and pct_cublas the median of the
#    pairs' ratios: near the ratio of the two medians, not equal to it.
csv=$TMP/interleave.csv
"$GP" --plugin "$TMP/libmine.so" --kernel mine,cublas --size 256 --metrics none \
    --reps 7 --interleave --out "$csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
got=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $1 == "mine" { r = $c["ref_time_ms"]; t = $c["time_ms"]; p = $c["pct_cublas"]
                   d = 100 * r / t - p; if (d < 0) d = -d
                   print (r > 0 && p > 0 && d < 0.25 * p) ? "ok" : "ref " r " time " t " pct " p }
    $1 == "cublas" { print "cublas ref_time_ms " $c["ref_time_ms"] }' "$csv")
if [ "$rc" = 0 ] && [ "$got" = $'cublas ref_time_ms NA\nok' ] && grep -q '^# interleave: ' "$csv"; then
    pass plugin_gpu/interleave_pct_from_paired_reference
else
    fail plugin_gpu/interleave_pct_from_paired_reference "exit $rc: $got $(head -c 300 "$TMP/err")"
fi
