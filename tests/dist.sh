#!/usr/bin/env bash
# dist.sh - `gemmprof dist` under mpirun with the CPU local kernels (no GPU
# needed): odd shapes on every grid shape of 4 ranks, FP32 and FP64, all
# verified; bad options end every rank with exit 2 and one line from rank
# 0, within a timeout.  Skipped by name without mpirun or without an MPI
# build of gemmprof.
. "$(dirname "$0")/lib.sh"

RUNS=(
    dist/naive_2x2_97x61x45_fp64 dist/naive_1x4_97x61x45_fp32
    dist/blocked_4x1_97x61x45_fp64 dist/blocked_2x2_300x260x32_fp32
    dist/naive_1x4_300x260x32_fp64 dist/blocked_4x1_300x260x32_fp32
    dist/naive_4x1_1x1x1_fp64_idle_ranks dist/blocked_1x4_1x1x1_fp32_idle_ranks
    dist/blocked_2x2_kblock_panel_grouping dist/np1_blocked_97x61x45_fp32
    dist/blocked_1x2_grouped_a_in_place_b_packed dist/naive_2x1_grouped_b_in_place_a_packed
    dist/blocked_1x3_grouped_fp64 dist/np1_in_place_panels_97x61x45_fp64
    dist/np1_comm_ms_near_zero
    dist/sampled_check_says_so dist/cpu_blas_2x2_fp64 dist/cpu_blas_np1_in_place_panels
    dist/rank_rows_and_summary dist/diff_pairs_rank_rows
    dist/diff_refuses_other_grid
    dist/bad_grid_exit2_one_line dist/bad_block_zero_exit2_one_line
    dist/bad_block_letters_exit2_one_line dist/bad_shape_exit2_one_line
    dist/bad_comm_for_cpu_exit2_one_line dist/gpu_kernel_without_gpu_exit2_one_line
    dist/bad_input_writes_nothing
)

skip_all() { for t in "${RUNS[@]}"; do skip "$t" "$1"; done; }

if "$GP" dist --help 2>&1 | grep -q 'built without MPI'; then
    expect dist/without_mpi_says_how 2 'built without MPI.*apt-get install libopenmpi-dev openmpi-bin; make MPI=1' -- "$GP" dist --size 8
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && pass dist/without_mpi_one_line || fail dist/without_mpi_one_line "$(cat "$TMP/err")"
    skip_all "gemmprof built without MPI (make MPI=1)"
    exit 0
fi
if ! command -v mpirun >/dev/null; then
    skip_all "mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)"
    exit 0
fi

MPIRUN=(mpirun)
if mpirun --version 2>&1 | grep -q 'Open MPI'; then
    # -q: no banner of mpirun's own when a rank exits non-zero
    MPIRUN+=(-q --oversubscribe)
    [ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
    # containers rarely allow the ptrace that single-copy shared memory needs
    export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi

# Open MPI leaks in its dlclose'd components, where LeakSanitizer cannot
# even name a frame: leak checking is off for the ranks of an ASan build
# (make SANITIZE=1; the variable is ignored otherwise).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# dist NP ARGS...: run under mpirun, stdout/stderr in $TMP/out, $TMP/err
dist() {
    local np=$1; shift
    timeout 120 "${MPIRUN[@]}" -np "$np" "$GP" dist "$@" >"$TMP/out" 2>"$TMP/err"
}

# field FILE COLUMN: that column of every data row (a header lookup, so the
# column order does not matter); the fields here hold no commas.
field() {
    awk -F, -v col="$2" '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) if ($i == col) c = i; h = 1; next }
        { print $c }' "$1"
}

# run_ok NAME NP ARGS...: exit 0; NP rank rows and one summary, all verified
run_ok() {
    local name=$1 np=$2; shift 2
    local csv=$TMP/${name//\//_}.csv
    dist "$np" "$@" --reps 2 --out "$csv"; local rc=$?
    if [ $rc != 0 ]; then fail "$name" "exit $rc: $(head -c 400 "$TMP/err")"; return 1; fi
    local ranks all bad
    ranks=$(field "$csv" rank | grep -cv '^all$')
    all=$(field "$csv" rank | grep -c '^all$')
    bad=$(field "$csv" verified | grep -cv '^1$')
    if [ "$ranks" != "$np" ] || [ "$all" != 1 ] || [ "$bad" != 0 ]; then
        fail "$name" "$ranks rank rows, $all summaries, $bad not verified"
        return 1
    fi
    pass "$name"
}

run_ok dist/naive_2x2_97x61x45_fp64 4 --grid 2x2 --block 8x8 --mnk 97,61,45 --local cpu_naive --precision fp64
run_ok dist/naive_1x4_97x61x45_fp32 4 --grid 1x4 --block 8x8 --mnk 97,61,45 --local cpu_naive --precision fp32
run_ok dist/blocked_4x1_97x61x45_fp64 4 --grid 4x1 --block 8x8 --mnk 97,61,45 --local cpu_blocked --precision fp64
run_ok dist/blocked_2x2_300x260x32_fp32 4 --grid 2x2 --block 8x8 --mnk 300,260,32 --local cpu_blocked --precision fp32
run_ok dist/naive_1x4_300x260x32_fp64 4 --grid 1x4 --block 8x8 --mnk 300,260,32 --local cpu_naive --precision fp64
run_ok dist/blocked_4x1_300x260x32_fp32 4 --grid 4x1 --block 8x8 --mnk 300,260,32 --local cpu_blocked --precision fp32
run_ok dist/naive_4x1_1x1x1_fp64_idle_ranks 4 --grid 4x1 --block 8x8 --mnk 1,1,1 --local cpu_naive --precision fp64
run_ok dist/blocked_1x4_1x1x1_fp32_idle_ranks 4 --grid 1x4 --block 8x8 --mnk 1,1,1 --local cpu_blocked --precision fp32
# K blocks of 4 grouped 3 to a panel, C blocks 16x8: the K rule and grouping
run_ok dist/blocked_2x2_kblock_panel_grouping 4 --grid 2x2 --block 16x8 --kblock 4 --panel 12 --mnk 97,61,45 --local cpu_blocked
run_ok dist/np1_blocked_97x61x45_fp32 1 --grid 1x1 --block 8x8 --mnk 97,61,45 --local cpu_blocked --precision fp32
# Panels of 3 K-blocks: on 1x2 the owner's A blocks lie side by side (read
# in place, one pack to send) while its B blocks are scattered over local B
# (packed); 2x1 the other way round; 1 rank reads both in place with
# leading dimensions wider than the panel.
run_ok dist/blocked_1x2_grouped_a_in_place_b_packed 2 --grid 1x2 --block 8x8 --panel 24 --mnk 97,61,45 --local cpu_blocked --precision fp32
run_ok dist/naive_2x1_grouped_b_in_place_a_packed 2 --grid 2x1 --block 8x8 --panel 24 --mnk 97,61,45 --local cpu_naive --precision fp64
run_ok dist/blocked_1x3_grouped_fp64 3 --grid 1x3 --block 8x8 --panel 16 --mnk 97,61,45 --local cpu_blocked --precision fp64
run_ok dist/np1_in_place_panels_97x61x45_fp64 1 --grid 1x1 --block 8x8 --panel 16 --mnk 97,61,45 --local cpu_naive --precision fp64

# One rank has nothing to send or pack (every panel is read in place), so
# comm_ms is loop overhead: far under 1% of the time (packing on the
# critical path used to cost some 5% here).
csv=$TMP/np1_comm.csv
dist 1 --grid 1x1 --block 8x8 --mnk 300,260,512 --local cpu_blocked --reps 3 --out "$csv"; rc=$?
comm=$(field "$csv" comm_ms | tail -1) time=$(field "$csv" time_ms | tail -1)
if [ $rc = 0 ] && awk -v c="$comm" -v t="$time" 'BEGIN { exit !(t > 0 && c < 0.01 * t) }'; then
    pass dist/np1_comm_ms_near_zero
else fail dist/np1_comm_ms_near_zero "exit $rc: comm_ms $comm of time_ms $time"; fi

# Over --check-budget each rank checks a sample of its C and says so;
# --quiet leaves stdout empty.
csv=$TMP/sampled.csv
dist 4 --mnk 300,260,32 --block 8x8 --local cpu_naive --check-budget 4096 --reps 1 --quiet --out "$csv"; rc=$?
if [ $rc = 0 ] && [ ! -s "$TMP/out" ] && [ "$(field "$csv" verify_scope | grep -c '^sample')" = 5 ] &&
   [ "$(field "$csv" verified | sort -u)" = 1 ]; then
    pass dist/sampled_check_says_so
else fail dist/sampled_check_says_so "exit $rc: $(field "$csv" verify_scope 2>&1 | tr '\n' ';')"; fi

dist 4 --grid 2x2 --mnk 97,61,45 --block 8x8 --local cpu_blas --reps 2 --out "$TMP/blas.csv"
if [ $? = 2 ] && grep -q 'no CPU BLAS' "$TMP/err"; then skip dist/cpu_blas_2x2_fp64 "no CPU BLAS library"
else run_ok dist/cpu_blas_2x2_fp64 4 --grid 2x2 --mnk 97,61,45 --block 8x8 --local cpu_blas; fi
if grep -q 'no CPU BLAS' "$TMP/err"; then skip dist/cpu_blas_np1_in_place_panels "no CPU BLAS library"
else run_ok dist/cpu_blas_np1_in_place_panels 1 --mnk 97,61,45 --block 8x8 --panel 16 --local cpu_blas; fi

# The rows: rank 0..3 then "all"; grid, block, comm filled; stdout's table.
a=$TMP/dist_naive_2x2_97x61x45_fp64.csv
if [ "$(field "$a" rank | tr '\n' ' ')" = "0 1 2 3 all " ] &&
   [ "$(field "$a" grid | sort -u)" = 2x2 ] && [ "$(field "$a" dist_block | sort -u)" = 8x8 ] &&
   [ "$(field "$a" comm | sort -u)" = mpi ] && [ "$(field "$a" ranks | sort -u)" = 4 ] &&
   grep -q '^# mpi_library: ' "$a" && grep -q '^# grid: 2x2' "$a"; then
    pass dist/rank_rows_and_summary
else fail dist/rank_rows_and_summary "$(grep -v '^#' "$a" | head -3)"; fi

# diff pairs rows by rank and grid: two 2x2 files share 5 rows, 2x2 vs 4x1 none.
b=$TMP/again.csv
dist 4 --grid 2x2 --block 8x8 --mnk 97,61,45 --local cpu_naive --precision fp64 --reps 2 --out "$b"
"$GP" diff "$a" "$b" --threshold 1000000 --format json >"$TMP/diff.json" 2>"$TMP/err"; rc=$?
if [ $rc = 0 ] && [ "$(grep -o '"verdict"' "$TMP/diff.json" | wc -l)" = 5 ]; then pass dist/diff_pairs_rank_rows
else fail dist/diff_pairs_rank_rows "exit $rc: $(head -c 300 "$TMP/err")"; fi
# (the 4x1 run's kernel renamed, so that only grid and ranks differ)
sed 's/^cpu_blocked,/cpu_naive,/' "$TMP/dist_blocked_4x1_97x61x45_fp64.csv" >"$TMP/c.csv"
expect dist/diff_refuses_other_grid 2 'no common rows' -- "$GP" diff "$a" "$TMP/c.csv"

# bad_input NAME REGEX ARGS...: exit 2 on every rank, one line, from rank 0
bad_input() {
    local name=$1 re=$2; shift 2
    dist 4 "$@" --out "$TMP/bad.csv"; local rc=$?
    local lines
    lines=$(grep -c '^gemmprof:' "$TMP/err")
    if [ $rc = 124 ]; then fail "$name" "hung (timeout)"
    elif [ $rc != 2 ]; then fail "$name" "exit $rc, wanted 2"
    elif [ "$lines" != 1 ] || ! grep -Eq -- "$re" "$TMP/err"; then
        fail "$name" "$lines lines: $(tr '\n' '|' <"$TMP/err")"
    else pass "$name"; fi
}
bad_input dist/bad_grid_exit2_one_line '--grid 2x3 is 6 processes but 4 were started' --grid 2x3 --mnk 16,16,16 --local cpu_naive
bad_input dist/bad_block_zero_exit2_one_line "--block: '0x8'" --grid 2x2 --block 0x8 --mnk 16,16,16 --local cpu_naive
bad_input dist/bad_block_letters_exit2_one_line "--block: 'axb'" --block axb --mnk 16,16,16 --local cpu_naive
bad_input dist/bad_shape_exit2_one_line "--mnk" --mnk 16,0,16 --local cpu_naive
bad_input dist/bad_comm_for_cpu_exit2_one_line 'CPU kernel' --mnk 16,16,16 --local cpu_naive --comm nccl
# a GPU kernel where there is no GPU: every rank finds out in set-up
if have_gpu; then skip dist/gpu_kernel_without_gpu_exit2_one_line "a GPU is visible"
else bad_input dist/gpu_kernel_without_gpu_exit2_one_line 'rank 0: .*cublas.*(GPU|CUDA)' --mnk 16,16,16 --local cublas; fi
[ -e "$TMP/bad.csv" ] && fail dist/bad_input_writes_nothing || pass dist/bad_input_writes_nothing
