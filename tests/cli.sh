#!/usr/bin/env bash
# cli.sh - the command line's contract: exit codes and one-line errors.
. "$(dirname "$0")/lib.sh"

expect cli/help 0 'Usage' -- "$GP" --help
expect cli/version 0 'gemmprof [0-9]' -- "$GP" --version
expect cli/list_names_every_rung 0 'naive.*fp32' -- "$GP" --list
expect cli/unknown_kernel_lists_valid 2 "unknown kernel 'nope'.*naive" -- "$GP" --kernel nope --size 64
expect cli/zero_size 2 'size' -- "$GP" --kernel naive --size 0
expect cli/junk_size 2 'size' -- "$GP" --kernel naive --size 12x
expect cli/no_size 2 'no size given' -- "$GP" --kernel naive
expect cli/no_kernel 2 'no kernel given' -- "$GP" --size 64
# Metric names are checked against CUPTI's host library (no GPU needed):
# where it cannot load (not installed; an ASan build, which cannot run it)
# these tests skip, saying why.
if "$GP" --list-metrics --chip GH100 >/dev/null 2>"$TMP/cupti"; then cupti_host=1
else cupti_host=0; fi
no_cupti() { skip "$1" "no CUPTI host library: $(head -c 200 "$TMP/cupti")"; }
if [ $cupti_host = 1 ]; then
    expect cli/bad_metric_name 2 'bogus__metric' -- "$GP" --kernel naive --size 64 --metrics bogus__metric.sum
else no_cupti cli/bad_metric_name; fi
# A counter the run file has no column for is refused (it would be
# collected and dropped), with or without CUPTI's host library.
expect cli/metric_without_column 2 \
    '^gemmprof: --metrics: no run-file column for lts__t_sectors_op_read.sum \(gemmprof records only these counters: gpu__time_duration.sum, ' \
    -- "$GP" --kernel naive --size 64 --metrics dram__bytes_read.sum,lts__t_sectors_op_read.sum
# The compiler's facts, one row per kernel and SASS target; the numbers
# below are sm_90's (registers differ by architecture).
if "$GP" --version | grep -q ' sm_90 '; then
    expect cli/build_facts_naive 0 '^"sgemm_naive\(int, int, int, float, float const\*, int, float const\*, int, float, float\*, int\)",32,0,0,0,kernels/sgemm_01_naive.cu,sm_90$' -- "$GP" --build-facts
    expect cli/build_facts_specimen_spills 0 '^"void sgemm_specimen<unsigned long>.*",128,48,44,44,kernels/specimen_spill_sizet.cu,sm_90$' -- "$GP" --build-facts
else
    skip cli/build_facts_naive "this build has no sm_90 SASS"
    skip cli/build_facts_specimen_spills "this build has no sm_90 SASS"
fi
expect cli/unknown_command 2 "unknown command 'frobnicate'" -- "$GP" frobnicate

# counters of any chip CUPTI knows, no GPU needed; RTX 50's DRAM counters
# have their own names
if [ $cupti_host = 1 ]; then
    expect cli/list_metrics_of_a_chip 0 '^dram__bytes_op_read	counter	' -- "$GP" --list-metrics --chip GB202
    expect cli/list_metrics_unknown_chip 2 "^gemmprof: --list-metrics: unknown chip 'NOPE' \(CUPTI knows: .*GH100.*\)$" -- \
        "$GP" --list-metrics --chip NOPE
else
    no_cupti cli/list_metrics_of_a_chip
    no_cupti cli/list_metrics_unknown_chip
fi
expect cli/chip_only_with_list_metrics 2 '^gemmprof: --chip names a chip for --list-metrics' -- \
    "$GP" --kernel naive --size 64 --chip GA100
if ! have_gpu && [ $cupti_host = 0 ]; then
    no_cupti cli/list_metrics_without_gpu_names_the_chips
elif ! have_gpu; then
    expect cli/list_metrics_without_gpu_names_the_chips 2 \
        '^gemmprof: --list-metrics: no GPU chip to list .*--chip NAME; CUPTI knows GV100 .*GB202' -- \
        "$GP" --list-metrics
fi

# Errors in the options must not leave a data file behind.
"$GP" --kernel nope --size 64 --out "$TMP/bad.csv" 2>/dev/null
[ -e "$TMP/bad.csv" ] && fail cli/bad_input_writes_nothing || pass cli/bad_input_writes_nothing

if have_gpu; then
    # a kernel this GPU or build cannot run, named: one line, exit 2, no file
    k=$("$GP" --list 2>/dev/null | awk -F'  +' 'NR > 1 && $4 == "skipped" { print $1; exit }')
    if [ -n "$k" ]; then
        expect cli/unrunnable_kernel_named_is_refused 2 "^gemmprof: cannot run here: $k needs sm_" -- \
            "$GP" --kernel "naive,$k" --size 64 --metrics none --out "$TMP/skip.csv"
        [ -e "$TMP/skip.csv" ] && fail cli/unrunnable_kernel_writes_nothing ||
            pass cli/unrunnable_kernel_writes_nothing
    else
        skip cli/unrunnable_kernel_named_is_refused "every kernel runs on this GPU with this build"
        skip cli/unrunnable_kernel_writes_nothing "every kernel runs on this GPU with this build"
    fi
    expect cli/size_too_big_refused 2 'needs .* GiB of GPU memory' -- \
        "$GP" --kernel naive --mnk 1048576,1048576,2048 --metrics none --out "$TMP/big.csv"
    [ -e "$TMP/big.csv" ] && fail cli/too_big_writes_nothing || pass cli/too_big_writes_nothing
else
    expect cli/no_gpu_one_line 2 '^gemmprof: (no CUDA device|no NVIDIA driver)' -- \
        "$GP" --kernel naive --size 64 --metrics none --out "$TMP/x.csv"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && pass cli/no_gpu_error_is_one_line || fail cli/no_gpu_error_is_one_line "$(cat "$TMP/err")"
    # the README's main command still draws something: the committed reference data
    if command -v gnuplot >/dev/null; then
        mkdir -p "$TMP/ref"
        gp_abs=$(realpath "$GP"); plots=$(cd "$(dirname "$0")/../plots" && pwd)
        (cd "$TMP/ref" && GEMMPROF_PLOTS=$plots "$gp_abs" --kernel all --size 4096 --roofline \
            >"$TMP/out" 2>"$TMP/err"); rc=$?
        if [ $rc = 2 ] && ls "$TMP"/ref/results/reference-*/roofline-*.pdf >/dev/null 2>&1 &&
           grep -q 'drew the committed .* reference data instead' "$TMP/err"; then
            pass cli/no_gpu_roofline_draws_reference_data
        else fail cli/no_gpu_roofline_draws_reference_data "exit $rc: $(tr '\n' ' ' <"$TMP/err")"; fi
    else skip cli/no_gpu_roofline_draws_reference_data "gnuplot not installed"; fi
fi
