#!/usr/bin/env bash
# trace.sh - gemmprof trace without a GPU: bad input is one line and exit 2,
# CMD's exit status, stdout and stdin are its own, a program that never
# creates a CUDA context is "not a CUDA program", the injected library is
# built self-contained and references no exit, abort, stdout or stderr;
# the part files of a trace (synthetic fixture parts,
# tests/fixtures/trace/parts/) merge into a run file that python's csv
# module, gnuplot, plot, report and diff all read; and a trace file a GPU
# wrote (committed) plots here, as the GPU machine has no gnuplot.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
LIB=${GEMMPROF_INJECT_LIB:-$here/../lib/gemmprof/libgemmprof-inject.so}
CEIL=$here/fixtures/ceilings-fixture.csv
GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP")    # absolute: the test runs in $TMP
cd "$TMP" || exit 1
unset CUDA_INJECTION64_PATH

# ---- bad input: one line, exit 2, CMD never runs ----
expect trace/help 0 '' -- "$GP" trace --help
grep -q -- '--kernel-regex RE' "$TMP/out" && grep -q -- '--sample SPEC' "$TMP/out" &&
    grep -q -- '--per-launch' "$TMP/out" && grep -q -- '--nvtx-include RANGE' "$TMP/out" &&
    pass trace/help_names_options || fail trace/help_names_options
expect trace/no_command 2 '^gemmprof: trace: no command given' -- "$GP" trace --summary
expect trace/bad_count 2 "launch-count: 'x' is not an integer in 0\\.\\." -- "$GP" trace --launch-count x -- touch ran
expect trace/bad_sample 2 "^gemmprof: trace: --sample: 'per-config:0' is not all, per-config or per-config:N" -- \
    "$GP" trace --sample per-config:0 -- touch ran
expect trace/bad_regex 2 "kernel-regex: '\(': " -- "$GP" trace --kernel-regex '(' -- touch ran
if "$GP" --list-metrics --chip GH100 >/dev/null 2>cupti.err; then
    expect trace/unknown_metric 2 'unknown metric for every chip CUPTI knows: nope.sum' -- \
        "$GP" trace --metrics nope.sum -- touch ran
    expect trace/metric_without_column 2 '^gemmprof: --metrics: no run-file column for lts__t_sectors_op_read.sum \(' -- \
        "$GP" trace --metrics lts__t_sectors_op_read.sum -- touch ran
else
    skip trace/unknown_metric "no CUPTI host library: $(head -c 200 cupti.err)"
    skip trace/metric_without_column "no CUPTI host library: $(head -c 200 cupti.err)"
fi
[ -e ran ] && fail trace/cmd_not_run_on_bad_input "CMD ran" || pass trace/cmd_not_run_on_bad_input
expect trace/cmd_not_found 2 '^gemmprof: /no/such/cmd: No such file or directory$' -- \
    "$GP" trace -- /no/such/cmd
lines=$(wc -l <"$TMP/err")
[ "$lines" = 1 ] && pass trace/errors_are_one_line || fail trace/errors_are_one_line "$lines lines"
CUDA_INJECTION64_PATH=/opt/tool.so expect trace/another_injector 2 \
    'CUDA_INJECTION64_PATH is already set' -- "$GP" trace -- true

# ---- CMD's own: exit status, stdout, stdin; not a CUDA program ----
expect trace/not_cuda_exit_2 2 'true is not a CUDA program' -- "$GP" trace -o o.csv -- true
[ -e o.csv ] && fail trace/not_cuda_writes_nothing || pass trace/not_cuda_writes_nothing
ls o.csv.parts-* >/dev/null 2>&1 && fail trace/parts_dir_removed || pass trace/parts_dir_removed
expect trace/exit_status_passed 7 'sh is not a CUDA program' -- "$GP" trace -- sh -c 'exit 7'
expect trace/signal_passed 143 'sh was killed by signal 15' -- "$GP" trace -- sh -c 'kill -TERM $$'
out=$("$GP" trace -q -- sh -c 'printf "one\ntwo\n"' 2>/dev/null)
[ "$out" = $'one\ntwo' ] && pass trace/stdout_untouched || fail trace/stdout_untouched "'$out'"
out=$(printf 'from stdin\n' | "$GP" trace -q -- sh -c 'read x; echo "$x"' 2>/dev/null)
[ "$out" = "from stdin" ] && pass trace/stdin_passed || fail trace/stdin_passed "'$out'"
# The environment CMD sees (the test of env.c is in tests/trace/).
"$GP" trace -o e.csv --kernel-regex 'gemm' --launch-count 3 -- \
    sh -c 'env | grep -E "^(CUDA_INJECTION64_PATH|GEMMPROF_TRACE_)" | sort' >env.txt 2>/dev/null
grep -q "^CUDA_INJECTION64_PATH=/.*/libgemmprof-inject.so$" env.txt &&
    grep -q '^GEMMPROF_TRACE_DIR=/.*/e.csv.parts-' env.txt &&
    grep -q '^GEMMPROF_TRACE_KERNEL_REGEX=gemm$' env.txt &&
    grep -q '^GEMMPROF_TRACE_LAUNCH_COUNT=3$' env.txt &&
    pass trace/cmd_environment || fail trace/cmd_environment "$(cat env.txt)"
# ^C goes to CMD; gemmprof stays to merge what was measured.
"$GP" trace -- sh -c 'kill -INT $PPID; echo after' >int.out 2>int.err
rc=$?
[ $rc = 2 ] && grep -q after int.out && pass trace/sigint_left_to_cmd ||
    fail trace/sigint_left_to_cmd "exit $rc: $(cat int.out int.err)"

# ---- the injected library: self-contained, one symbol, harmless ----
if ! command -v nm >/dev/null || ! command -v readelf >/dev/null; then
    skip trace/lib_exports_entry_only "no binutils (nm, readelf) here"
elif [ -r "$LIB" ]; then
    syms=$(nm -D --defined-only "$LIB" | awk '{ print $3 }')
    # CUDA's entry point and NVTX's (--nvtx-include), nothing else
    [ "$(sort <<<"$syms" | tr '\n' ' ')" = 'InitializeInjection InitializeInjectionNvtx2 ' ] &&
        pass trace/lib_exports_entry_only || fail trace/lib_exports_entry_only "$syms"
    # it runs inside someone else's process: it never ends it, nor prints
    # into its stdout or stderr (trouble goes to the part file)
    bad=$(nm -D --undefined-only "$LIB" | awk '{ sub(/@.*/, "", $2); print $2 }' |
          grep -xE '_?_?(exit|_exit|_Exit|quick_exit|abort|__assert_fail|perror|puts|putchar|printf|vprintf|__printf_chk|stdout|stderr)' |
          tr '\n' ' ')
    [ -z "$bad" ] && pass trace/lib_never_exits_or_prints || fail trace/lib_never_exits_or_prints "$bad"
    needed=$(readelf -d "$LIB" | awk '/NEEDED/ { print $5 }' | tr -d '[]' | tr '\n' ' ')
    grep -qE 'cudart|cupti|libcuda' <<<"$needed" &&
        fail trace/lib_needs_no_cuda_runtime "$needed" || pass trace/lib_needs_no_cuda_runtime
else
    fail trace/lib_built "$LIB missing (make builds it)"
fi

# ---- merged parts: rows, durations, readers ----
cp -r "$here/fixtures/trace/parts" parts
expect trace/merge 0 'trace: 5 rows \(5 launches, 0 from CUDA graphs\) from 2 CUDA processes' -- \
    "$GP" trace --merge parts --per-launch -o merged.csv
python3 - merged.csv >py.txt 2>&1 <<'EOF'
import csv, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith('#')]
rows = list(csv.DictReader(lines))
head = lines[0].split(',')
assert all(len(r) == len(head) for r in rows), 'field counts'
r = {x['correlation_id']: x for x in rows}
assert r['12']['kernel'].startswith('void at::native::vectorized_elementwise_kernel<4, at::'), r['12']['kernel']
assert r['40']['precision'] == 'tf32' and float(r['40']['flop_count']) == 2 * 4096**3 + 2 * 16777216
assert abs(float(r['40']['time_ms']) - 0.38) < 1e-9, r['40']['time_ms']
assert r['40']['m'] == r['40']['n'] == r['40']['k'] == 'NA'
assert r['40']['flop_2mnk'] == 'NA'
assert abs(float(r['40']['gflops']) - float(r['40']['flop_count']) / 0.38e6) < 1, r['40']['gflops']
assert r['9']['rank'] == '1' and r['9']['pid'] == '31338' and r['9']['precision'] == 'bf16'
assert r['57']['config'] == 'grid=16x32x1 block=256x1x1'
print('ok', len(rows))
EOF
grep -q '^ok 5$' py.txt && pass trace/merged_rows_read_by_python_csv ||
    fail trace/merged_rows_read_by_python_csv "$(tail -3 py.txt)"
grep -q '^# processes: 2: 31337 python3 mm.py; 31338 python3 mm.py$' merged.csv &&
    pass trace/merged_metadata || fail trace/merged_metadata
if command -v gnuplot >/dev/null; then
    n=$(gnuplot -e "set datafile separator ','; set datafile missing 'NA'; \
        stats 'merged.csv' using 'flop_count' nooutput; print STATS_records" 2>&1)
    [ "$n" = 5 ] && pass trace/gnuplot_reads_quoted_names ||
        fail trace/gnuplot_reads_quoted_names "gnuplot counted '$n' records"
fi
# the default: a row per configuration (--summary says the same)
expect trace/per_config_default 0 'trace: 4 rows \(5 launches' -- "$GP" trace --merge parts -o def.csv
expect trace/summary 0 'trace: 4 rows' -- "$GP" trace --merge parts --summary -o sum.csv
cmp -s <(grep -v '^# \(command\|date\|host\)' def.csv) <(grep -v '^# \(command\|date\|host\)' sum.csv) &&
    pass trace/summary_is_the_default || fail trace/summary_is_the_default "$(diff def.csv sum.csv | head -5)"
awk -F, '/^kernel,/ { for (i = 1; i <= NF; i++) c[$i] = i }
          /^sm90_xmma/ { print $c["launches"] "," $c["time_total_ms"] }' sum.csv | grep -qx '2,0.771' &&
    pass trace/summary_folds_launches || fail trace/summary_folds_launches "$(grep sm90 sum.csv)"

# ---- the run file's readers: plot, report, diff ----
if command -v gnuplot >/dev/null && command -v pdftotext >/dev/null; then
    # the fixture's ceilings plus a TF32 tensor row (H100 SXM, 132 SMs x 2048
    # FLOP/clk x 1830 MHz), which the BF16 roof is drawn from
    { cat "$CEIL"; echo 'tf32_tensor,GFLOP/s,NA,494720,NA,fixture: theoretical'; } >ceil.csv
    expect trace/plot 0 '' -- "$GP" plot merged.csv --ceilings ceil.csv \
        --charts roofline,metrics --out charts
    text=$(for f in charts/roofline-*.pdf; do pdftotext -raw "$f" - 2>/dev/null; done)
    for w in cutlass_80_simt_sgemm_256x128_8x4_nn_align1 nvjet_tst_256x128_64x4_2x1_v_bz_coopA_NNT \
             'BF16 tensor (2x TF32)' 'size NA (traced kernels)'; do
        grep -qF -- "$w" <<<"$text" || { fail trace/roofline_labels "no '$w'"; w=; break; }
    done
    [ -n "$w" ] && pass trace/roofline_labels
    grep -qi 'gnuplot' "$TMP/err" && fail trace/plot_no_gnuplot_warnings "$(cat "$TMP/err")" ||
        pass trace/plot_no_gnuplot_warnings
    expect trace/report 0 '' -- "$GP" report merged.csv --ceilings "$CEIL" --out rep
    grep -q 'cutlass_80_simt_sgemm_256x128_8x4_nn_align1 | fp32 | grid=16x32x1' \
        rep/merged/tables/summary.md && pass trace/report_table ||
        fail trace/report_table "$(head -8 rep/merged/tables/summary.md)"
    # A trace file a GPU wrote (tests/trace_gpu.sh's application, traced
    # on an H100; its '#' header says how): the GPU machine has no gnuplot,
    # so its rows are plotted here.  One roofline per precision counted,
    # each naming its kernels.
    gpu_trace=$here/../reports/data/h100/reverify-bfa284b/fixture-trace.csv
    expect trace/plot_gpu_trace_file 0 '' -- "$GP" plot "$gpu_trace" --ceilings ceil.csv \
        --charts roofline --out gpu-charts
    why=
    for want in 'fp32:saxpy' 'fp32:chain<ffma_step; float>' 'fp32:chain<fadd_fmul_step; float>' \
                'fp64:chain<dfma_step; double>' 'bf16:bf16_mma' \
                'fp32:Roofline, FP32: NVIDIA H100 80GB HBM3, size NA (traced kernels)'; do
        f=gpu-charts/roofline-${want%%:*}.pdf
        pdftotext -raw "$f" - 2>/dev/null | grep -qF -- "${want#*:}" || why="$why; no '${want#*:}' in $f"
    done
    [ -z "$why" ] && pass trace/plot_gpu_trace_labels || fail trace/plot_gpu_trace_labels "${why#; }"
else
    skip trace/plot "gnuplot or poppler-utils not installed"
    skip trace/plot_gpu_trace_file "gnuplot or poppler-utils not installed"
fi
expect trace/diff_same 0 '5 pairs: 0 regressed' -- "$GP" diff merged.csv merged.csv
python3 - merged.csv slower.csv <<'EOF'
import csv, sys
src = open(sys.argv[1]).read().splitlines(keepends=True)
meta = [l for l in src if l.startswith('#')]
rows = list(csv.DictReader([l for l in src if not l.startswith('#')]))
for r in rows:
    if r['kernel'].startswith('nvjet'):
        r['time_ms'] = '0.5'
        r['gflops'] = str(float(r['flop_count']) / 0.5e6)
with open(sys.argv[2], 'w', newline='') as f:
    f.writelines(meta)
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator='\n')
    w.writeheader()
    w.writerows(rows)
EOF
expect trace/diff_finds_slower_kernel 1 '' -- "$GP" diff merged.csv slower.csv
grep -q 'REGRESSED.*nvjet_tst_256x128_64x4_2x1_v_bz_coopA_NNT' "$TMP/out" &&
    pass trace/diff_names_the_kernel || fail trace/diff_names_the_kernel "$(head -5 "$TMP/out")"
