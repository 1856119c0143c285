#!/usr/bin/env bash
# trace_gpu.sh - gemmprof trace on a GPU, with a fixture application of its
# own main() (tests/fixtures/trace/app.cu, built here with nvcc): every
# profiled launch gets a row with its demangled name, launch shape, static
# facts, Activity API duration and counters, and its FFMA, FADD, FMUL, DFMA
# and BF16 tensor counts equal what the kernels execute, exactly; the
# application's stdout, stdin and exit status are its own; child processes
# are traced; a crash keeps every row before it; the rows plot.  And at
# scale (tests/fixtures/trace/scale.cu: 1051 stream launches of four
# configurations, a CUDA graph replayed 5 times, NVTX ranges): the default
# sampling's rows account for every launch, graph kernels appear with their
# ids, --nvtx-include keeps the launches of its range, and a long kernel's
# per-configuration time agrees with --metrics none.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
export GEMMPROF_PLOTS=${GEMMPROF_PLOTS:-$here/../plots}
CMP="python3 $here/../scripts/trace-compare.py"
GP=$(cd "$(dirname "$GP")" && pwd)/$(basename "$GP")
cd "$TMP" || exit 1
unset CUDA_INJECTION64_PATH

gpu_or_skip trace_gpu/fixture_builds || exit 0
ulimit -c 0
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
if ! "$NVCC" -O3 -arch="sm_${cc:-90}" -o app "$here/fixtures/trace/app.cu" >build.log 2>&1; then
    fail trace_gpu/fixture_builds "$(tail -5 build.log)"
    exit 0
fi
pass trace_gpu/fixture_builds

# rows FILE: data rows; col FILE COLUMN: that column of every row (python's
# csv: the names hold commas)
rows() { grep -vc '^#' "$1" | awk '{ print $1 - 1 }'; }
col() {
    python3 -c 'import csv,sys
lines=[l for l in open(sys.argv[1]) if not l.startswith("#")]
for r in csv.DictReader(lines): print(r[sys.argv[2]])' "$1" "$2"
}
# want NAME CMD...: PASS if CMD succeeds, else FAIL with its output
want() {
    local name=$1; shift
    local out; out=$("$@" 2>&1) && pass "$name" || fail "$name" "$(tail -5 <<<"$out")"
}

./app --launches 2 >plain.out 2>plain.err
rc=$?
[ $rc = 0 ] && pass trace_gpu/plain_run || fail trace_gpu/plain_run "exit $rc: $(cat plain.err)"

# ---- one traced run: every launch profiled for every counter, every check ----
"$GP" trace --sample all --per-launch --tensor-counters always -o t.csv -- \
    ./app --launches 2 --expect expect.txt \
    >traced.out 2>traced.err
rc=$?
[ $rc = 0 ] && pass trace_gpu/traced_run_exit_0 || fail trace_gpu/traced_run_exit_0 "exit $rc: $(cat traced.err)"
cmp -s plain.out traced.out && pass trace_gpu/stdout_untouched ||
    fail trace_gpu/stdout_untouched "$(diff plain.out traced.out | head -5)"
# Where the time went: the top-kernels table on stderr (data/hotspots.c),
# counting every launch the file holds.
launches=$(col t.csv launches | awk '{ n += ($1 == "NA" ? 1 : $1) } END { print n }')
grep -q "^gemmprof: where the GPU time went in t.csv: .* ms, $launches launches of " traced.err &&
   grep -q '^  1  .*%' traced.err && pass trace_gpu/top_kernels_table ||
    fail trace_gpu/top_kernels_table "$(grep -A3 'where the GPU time' traced.err)"
grep -q 'counters unavailable' traced.err &&
    fail trace_gpu/counters_collected "$(cat traced.err)" || pass trace_gpu/counters_collected
n=$(rows t.csv)
[ "$n" = 10 ] && pass trace_gpu/one_row_per_launch || fail trace_gpu/one_row_per_launch "$n rows, wanted 10"
want trace_gpu/counts_exact $CMP expect t.csv expect.txt
col t.csv kernel | grep -qx 'void chain<ffma_step, float>(float\*, float, float, int)' &&
    pass trace_gpu/names_demangled || fail trace_gpu/names_demangled "$(col t.csv kernel | head -3)"
col t.csv config | sort -u | grep -qx 'grid=264x1x1 block=256x1x1' &&
    pass trace_gpu/launch_shape || fail trace_gpu/launch_shape "$(col t.csv config | sort -u)"
bad=$(paste -d' ' <(col t.csv regs_per_thread) <(col t.csv occupancy_theoretical) \
      <(col t.csv occupancy_limiter) | grep -vcE '^[0-9]+ [0-9.]+ (registers|shared_memory|warps|blocks)$')
[ "$bad" = 0 ] && pass trace_gpu/static_facts ||
    fail trace_gpu/static_facts "$bad rows without registers/occupancy/limiter"
bad=$(col t.csv time_ms | grep -vcE '^[0-9.e+-]+$')
[ "$bad" = 0 ] && pass trace_gpu/activity_durations ||
    fail trace_gpu/activity_durations "$bad rows without time_ms"
# the process's host time per profiled launch: all 10 launches accounted
grep -qE '^# profiling_cost: [0-9]+: 10 profiled launches \(0 gated\), [0-9.]+ ms in them; a launch: [0-9.]+ ms = entry' t.csv &&
    pass trace_gpu/profiling_cost_line || fail trace_gpu/profiling_cost_line "$(grep '^# profiling_cost' t.csv)"
pids=$(col t.csv pid | sort -u)
[ "$(wc -l <<<"$pids")" = 1 ] && [ "$pids" -gt 0 ] && pass trace_gpu/pid_tagged ||
    fail trace_gpu/pid_tagged "$pids"
col t.csv precision | sort -u | tr '\n' ' ' | grep -qx 'bf16 fp32 fp64 ' &&
    pass trace_gpu/precision_from_counters || fail trace_gpu/precision_from_counters \
    "$(col t.csv precision | sort -u | tr '\n' ' ')"

# ---- --tensor-counters auto (the default): a configuration's first
# launch without the tensor-path counters, which are 0 where no tensor-core
# math ran (the chains, saxpy); bf16_mma ran some (one HMMA per mma.sync:
# 2112 warps x 16384), so its next launch took every counter.  The row's
# counts are exact all the same. ----
"$GP" trace -o au.csv -- ./app --launches 3 >/dev/null 2>au.err
want trace_gpu/tensor_auto_counts_exact $CMP expect au.csv expect.txt
python3 - au.csv >au.check 2>&1 <<'EOF'
import csv, sys
rows = {r['kernel'].split('(')[0]: r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))}
assert len(rows) == 5, list(rows)
for k, r in rows.items():
    assert r['launches'] == '3', (k, r['launches'])
    if 'bf16_mma' in k:
        assert r['profiled'] == '2' and r['tensor_math_inst'] == '34603008', (k, r['profiled'], r['tensor_math_inst'])
        assert r['precision'] == 'bf16' and r['flop_count'] != 'NA', (r['precision'], r['flop_count'])
    else:
        assert r['profiled'] == '1' and r['tensor_math_inst'] == '0', (k, r['profiled'], r['tensor_math_inst'])
        for c in r:
            if c.startswith('sm__ops_path_tensor_'):
                assert r[c] == '0', (k, c, r[c])
print('ok')
EOF
grep -qx ok au.check && pass trace_gpu/tensor_auto_rows || fail trace_gpu/tensor_auto_rows "$(tail -3 au.check)"
grep -qE '^# tensor_counters: auto: a configuration.s first profiled launch takes [0-9]+ passes' au.csv &&
    grep -qE '^# profiling_cost: [0-9]+: 6 profiled launches \(5 gated\)' au.csv &&
    pass trace_gpu/tensor_auto_said || fail trace_gpu/tensor_auto_said \
    "$(grep -E '^# (tensor_counters|profiling_cost)' au.csv)"
# launched once: bf16_mma's tensor-path counters and FLOPs are NA, said
"$GP" trace -o au1.csv -- ./app >/dev/null 2>au1.err
python3 - au1.csv >au1.check 2>&1 <<'EOF'
import csv, sys
r = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')) if 'bf16_mma' in r['kernel']][0]
assert r['sm__ops_path_tensor_src_bf16_dst_fp32.sum'] == 'NA' and r['flop_count'] == 'NA', r['flop_count']
assert r['tensor_math_inst'] == '34603008' and r['precision'] == 'NA', (r['tensor_math_inst'], r['precision'])
print('ok')
EOF
grep -qx ok au1.check && grep -q '1 of 5 rows ran tensor-core math in their one profiled launch' au1.err &&
    pass trace_gpu/tensor_auto_once_is_na || fail trace_gpu/tensor_auto_once_is_na "$(tail -2 au1.check) $(cat au1.err)"

# ---- the options ----
"$GP" trace --summary -o s.csv -- ./app --launches 2 >/dev/null 2>s.err
[ "$(rows s.csv)" = 5 ] && [ "$(col s.csv launches | sort -u)" = 2 ] &&
    pass trace_gpu/summary_folds || fail trace_gpu/summary_folds "$(rows s.csv) rows: $(cat s.err)"
"$GP" trace --kernel-regex 'chain<ffma_step' --launch-skip 1 --launch-count 1 -o f.csv -- \
    ./app --launches 3 >/dev/null 2>f.err
[ "$(rows f.csv)" = 1 ] && col f.csv kernel | grep -q '^void chain<ffma_step' &&
    pass trace_gpu/kernel_regex_skip_count || fail trace_gpu/kernel_regex_skip_count \
    "$(rows f.csv) rows: $(col f.csv kernel) $(cat f.err)"
"$GP" trace --metrics none -o n.csv -- ./app >/dev/null 2>n.err
[ "$(rows n.csv)" = 5 ] && [ "$(col n.csv sm__sass_thread_inst_executed_op_ffma_pred_on.sum | sort -u)" = NA ] &&
    [ "$(col n.csv time_ms | grep -c NA)" = 0 ] && pass trace_gpu/metrics_none_times_only ||
    fail trace_gpu/metrics_none_times_only "$(cat n.err)"

# ---- the application is left alone ----
expect trace_gpu/exit_status_passed 5 '' -- "$GP" trace -o x.csv -- ./app --exit 5
[ "$(rows x.csv)" = 5 ] && pass trace_gpu/rows_with_failing_exit || fail trace_gpu/rows_with_failing_exit
expect trace_gpu/crash_passed 139 'killed by signal 11.*the 3 rows measured before are in' -- \
    "$GP" trace -o c.csv -- ./app --launches 2 --crash-after 3
[ "$(rows c.csv)" = 3 ] && pass trace_gpu/crash_keeps_rows || fail trace_gpu/crash_keeps_rows "$(rows c.csv) rows"
out=$(echo 'hello from stdin' | "$GP" trace -q -o i.csv -- ./app --echo-stdin 2>/dev/null | head -1)
[ "$out" = 'hello from stdin' ] && pass trace_gpu/stdin_passed || fail trace_gpu/stdin_passed "'$out'"
"$GP" trace -o ch.csv -- ./app --child >/dev/null 2>ch.err
[ "$(rows ch.csv)" = 10 ] && [ "$(col ch.csv pid | sort -u | wc -l)" = 2 ] &&
    pass trace_gpu/child_process_traced || fail trace_gpu/child_process_traced \
    "$(rows ch.csv) rows, pids $(col ch.csv pid | sort -u | tr '\n' ' '): $(cat ch.err)"
OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 "$GP" trace -o r.csv -- ./app >/dev/null 2>&1
[ "$(col r.csv rank | sort -u)" = 1 ] && [ "$(col r.csv ranks | sort -u)" = 2 ] &&
    pass trace_gpu/mpi_rank_tagged || fail trace_gpu/mpi_rank_tagged "$(col r.csv rank | sort -u)"

# ---- at scale: sampling per configuration, CUDA graphs, NVTX ----
if ! "$NVCC" -O3 -arch="sm_${cc:-90}" -o scale "$here/fixtures/trace/scale.cu" -ldl >sbuild.log 2>&1; then
    fail trace_gpu/scale_fixture_builds "$(tail -5 sbuild.log)"
else
    pass trace_gpu/scale_fixture_builds
    ./scale --expect scale.txt >scale.out 2>&1 || fail trace_gpu/scale_plain_run "$(cat scale.out)"
    want_n() { awk -v k="$1" '$1 == k { print $2 }' scale.txt; }
    # sumcol FILE COLUMN [graph|stream]: the column's sum over those rows
    sumcol() {
        python3 -c 'import csv,sys
rows=[r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
kind=sys.argv[3] if len(sys.argv) > 3 else ""
rows=[r for r in rows if not kind or (r["graph_id"] != "NA") == (kind == "graph")]
print(sum(int(r[sys.argv[2]]) for r in rows))' "$@"
    }
    "$GP" trace -o d.csv -- ./scale >d.out 2>d.err
    rc=$?
    [ $rc = 0 ] && cmp -s d.out scale.out && pass trace_gpu/scale_traced_run ||
        fail trace_gpu/scale_traced_run "exit $rc: $(cat d.err)"
    # every kernel execution is in a row: the stream launches and the graphs'
    [ "$(sumcol d.csv launches)" = "$(want_n launches)" ] &&
        [ "$(sumcol d.csv launches graph)" = "$(want_n graph)" ] &&
        pass trace_gpu/sampled_rows_count_every_launch || fail trace_gpu/sampled_rows_count_every_launch \
        "$(sumcol d.csv launches) launches in rows ($(sumcol d.csv launches graph) from graphs), made $(want_n launches) ($(want_n graph)): $(cat d.err)"
    # one row per configuration (A, B, C, D) and per graph node (3), each
    # stream configuration profiled once, timed from its unprofiled launches
    python3 - d.csv >d.check 2>&1 <<'EOF'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')))
stream = [r for r in rows if r['graph_id'] == 'NA']
graph = [r for r in rows if r['graph_id'] != 'NA']
assert len(stream) == 4 and len(graph) == 3, (len(stream), len(graph))
for r in stream:
    assert r['profiled'] == '1', (r['kernel'], r['profiled'])
    n = int(r['launches'])
    if n > 1:
        assert r['time_source'] == 'activity' and int(r['reps']) == n - 1, (r['kernel'], r['time_source'], r['reps'])
        assert r['sm__sass_thread_inst_executed_op_ffma_pred_on.sum'] != 'NA', r['kernel']
    else:
        assert r['time_source'] in ('profiled-activity', 'gpu__time_duration'), r['time_source']
        assert r['kernel'].startswith('once'), r['kernel']
launches = sorted(int(r['launches']) for r in stream)
assert launches == [1, 150, 200, 700], launches
for r in graph:
    assert int(r['launches']) == 5 and r['graph_node_id'] != 'NA', r
    assert r['status'].startswith('counters NA: kernel of a CUDA graph'), r['status']
    assert r['time_ms'] != 'NA' and r['profiled'] == '0'
print('ok')
EOF
    grep -qx ok d.check && pass trace_gpu/per_config_rows_and_graph_nodes ||
        fail trace_gpu/per_config_rows_and_graph_nodes "$(tail -3 d.check)"
    "$GP" trace --per-launch -o pl.csv -- ./scale >/dev/null 2>pl.err
    [ "$(rows pl.csv)" = "$(want_n launches)" ] && [ "$(sumcol pl.csv profiled)" = 4 ] &&
        pass trace_gpu/per_launch_rows || fail trace_gpu/per_launch_rows \
        "$(rows pl.csv) rows, $(sumcol pl.csv profiled) profiled: $(cat pl.err)"
    "$GP" trace --nvtx-include step -o nv.csv -- ./scale >/dev/null 2>nv.err
    [ "$(sumcol nv.csv launches)" = "$(want_n nvtx_step)" ] &&
        [ "$(sumcol nv.csv launches graph)" = "$(want_n nvtx_graph)" ] &&
        pass trace_gpu/nvtx_include_restricts || fail trace_gpu/nvtx_include_restricts \
        "$(sumcol nv.csv launches) launches ($(sumcol nv.csv launches graph) from graphs), wanted $(want_n nvtx_step) ($(want_n nvtx_graph)): $(grep -h nvtx_error nv.csv) $(cat nv.err)"
    # a long kernel's time (spin, ~40 us): the sampled run's median over its
    # unprofiled launches against --metrics none's over all of them, within
    # 3% (two runs of the same program; the profiled launch left out)
    "$GP" trace --metrics none -o none.csv -- ./scale >/dev/null 2>none.err
    python3 - d.csv none.csv >t.check 2>&1 <<'EOF'
import csv, sys
def spin(path):
    rows = csv.DictReader(l for l in open(path) if not l.startswith('#'))
    return [float(r['time_ms']) for r in rows if r['kernel'].startswith('spin') and r['graph_id'] == 'NA'][0]
a, b = spin(sys.argv[1]), spin(sys.argv[2])
dev = abs(a / b - 1) * 100
print('spin %.4f ms sampled, %.4f ms --metrics none: %.2f%%' % (a, b, dev))
assert b > 0.01 and dev < 3, dev
print('ok')
EOF
    grep -qx ok t.check && pass trace_gpu/per_config_time_matches_metrics_none ||
        fail trace_gpu/per_config_time_matches_metrics_none "$(head -3 t.check)"
fi

# ---- the rows plot (the GPU machine may have no gnuplot: then the lead
# plots the run files the device script keeps) ----
if command -v gnuplot >/dev/null; then
    expect trace_gpu/rows_plot 0 '' -- "$GP" plot t.csv --ceilings "$here/fixtures/ceilings-fixture.csv" \
        --charts roofline --out charts
    [ -s charts/roofline.pdf ] && pass trace_gpu/roofline_drawn || fail trace_gpu/roofline_drawn
else
    skip trace_gpu/rows_plot "no gnuplot here"
fi
if [ -n "${TRACE_KEEP:-}" ]; then          # the device script keeps the files
    mkdir -p "$TRACE_KEEP" && cp t.csv s.csv au.csv au1.csv expect.txt "$TRACE_KEEP/"
    cp d.csv pl.csv nv.csv none.csv scale.txt t.check "$TRACE_KEEP/" 2>/dev/null
fi
