#!/usr/bin/env bash
# dist-check.sh - `gemmprof dist` on the GPUs of one host, in one call:
# the machine's Open MPI, build with MPI, the GPU
# topology, NCCL found, then 1 rank and every grid the GPUs allow (2: 1x2
# and 2x1; 4: 1x4 and 2x2; 8: 2x4 and 4x2) at each size in SIZES, FP32,
# with cuBLAS and the best SIMT rung, over every transport this machine has
# (or those in COMMS), and one M,N >> K shape; every run verified.  CSVs and
# logs under $OUT/dist, a speed-up table last.
#   scripts/dist-check.sh            Env: OUT (default ./device-out), JOBS,
#   SIZES ("8192"; SIZE is the old name), SKINNY (16384,16384,1024; "" for
#   none), KERNELS ("cublas warptiling"), COMMS (every transport that works),
#   REPS (5), B and BIN (make's build and binary folders: build, bin),
#   DIST_ARGS (more `gemmprof dist` options for every run, e.g. --panel 2048).
#   Made to stay under ~6 minutes on 2 H100/H200 with the defaults.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}; D=$OUT/dist; mkdir -p "$D"
JOBS=${JOBS:-$(nproc)}; SIZES=${SIZES:-${SIZE:-8192}}; SKINNY=${SKINNY-16384,16384,1024}
KERNELS=${KERNELS:-cublas warptiling}; REPS=${REPS:-5}
read -r -a EXTRA <<<"${DIST_ARGS:-}"
B=${B:-build}; BIN=${BIN:-bin}; GP=$BIN/gemmprof
export PATH=/usr/local/cuda/bin:$PATH
# NVLink SHARP (multicast) must stay off on these machines.
export NCCL_NVLS_ENABLE=0
t0=$SECONDS
status=0

section() { printf '==== %s (%d s)\n' "$1" $((SECONDS - t0)); }

section "Open MPI"
command -v mpirun >/dev/null || { echo "dist-check: no mpirun on this machine (Open MPI: apt-get install openmpi-bin libopenmpi-dev)"; exit 2; }
mpirun --version 2>&1 | head -1
[ -f /usr/include/cmocka.h ] || export CMOCKA=$PWD/.devdeps/cmocka
[ -f /usr/include/jansson.h ] || export JANSSON=$PWD/.devdeps/jansson

section "NCCL"
find_nccl() {
    local c
    # The system's (built for this CUDA) before torch's bundled one.
    for c in "${GEMMPROF_NCCL:-}" \
             "$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 /{print $NF; exit}')" \
             /usr/local/cuda/lib/libnccl.so.2 /usr/local/cuda/lib64/libnccl.so.2 \
             /opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2; do
        [ -n "$c" ] && [ -f "$c" ] && { echo "$c"; return; }
    done
    find /opt /usr -name 'libnccl.so.2' 2>/dev/null | head -1
}
NCCL_LIB=$(find_nccl)
if [ -n "$NCCL_LIB" ]; then
    export GEMMPROF_NCCL=$NCCL_LIB
    echo "GEMMPROF_NCCL=$GEMMPROF_NCCL"
    # nccl.h at build time (types only): the toolkit's, else the one shipped
    # beside the library (pip's nvidia-nccl has include/ next to lib/).
    if [ ! -f /usr/local/cuda/include/nccl.h ]; then
        inc=$(cd "$(dirname "$NCCL_LIB")/../include" 2>/dev/null && pwd)
        [ -n "$inc" ] && [ -f "$inc/nccl.h" ] && export CPATH=$inc${CPATH:+:$CPATH} &&
            echo "nccl.h from $inc"
    fi
else
    echo "no libnccl.so.2 found: --comm nccl will be refused"
fi

section "build"
if ! make -j"$JOBS" MPI=1 B="$B" BIN="$BIN" all >"$D/build.log" 2>&1; then
    echo "build FAILED:"; tail -30 "$D/build.log"; exit 1
fi
if "$GP" dist --help 2>&1 | grep -q 'built without MPI'; then
    echo "$GP was built without MPI"; exit 1
fi

section "topology"
nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total --format=csv,noheader
nvidia-smi topo -m 2>&1 | head -12
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

MPIRUN=(mpirun -q --bind-to none)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
# run NAME NP ARGS...: one dist run, its CSV $D/NAME.csv, log $D/NAME.log
run() {
    local name=$1 np=$2; shift 2
    local t=$SECONDS rc
    timeout 150 "${MPIRUN[@]}" -np "$np" \
        "$GP" dist --reps "$REPS" --warmup 1 --out "$D/$name.csv" "${EXTRA[@]}" "$@" \
        >"$D/$name.log" 2>&1
    rc=$?
    local last; last=$(grep -E '^all|gemmprof:' "$D/$name.log" | grep -v 'counters unavailable' | tail -1)
    printf '%-34s exit %d  %3d s  %s\n' "$name" "$rc" $((SECONDS - t)) "$last"
    [ "$rc" = 0 ] || [ "$rc" = 2 ] || status=1
    return "$rc"
}

# Transports a 2-rank run can use here (the refusal of one is a result too).
section "transports"
WANT=${COMMS:-nccl cuda-aware staged}
COMMS=()
for c in $WANT; do
    if run "probe-$c" 2 --size 1024 --local cublas --comm "$c" --reps 1; then
        COMMS+=("$c")
    fi
done
echo "transports: ${COMMS[*]:-none}"
rm -f "$D"/probe-*.csv
[ "$NGPU" -ge 2 ] || echo "only $NGPU GPU: the 2-rank runs share it"

# The grids the issue asks for, as far as the GPUs go (one rank a GPU).
GRIDS=(1x2 2x1)
[ "$NGPU" -ge 4 ] && GRIDS+=(1x4 2x2)
[ "$NGPU" -ge 8 ] && GRIDS+=(2x4 4x2)
ranks() { echo $(( ${1%x*} * ${1#*x} )); }

section "runs"
for size in $SIZES; do
    for k in $KERNELS; do
        run "$k-$size-1rank" 1 --size "$size" --local "$k" --comm staged
        for c in "${COMMS[@]}"; do
            for g in "${GRIDS[@]}"; do
                run "$k-$size-$g-$c" "$(ranks "$g")" --size "$size" --local "$k" --grid "$g" --comm "$c"
            done
        done
    done
done
if [ -n "$SKINNY" ]; then
    sk=${SKINNY//,/x}
    run "cublas-$sk-1rank" 1 --mnk "$SKINNY" --local cublas --comm staged
    for c in "${COMMS[@]}"; do
        run "cublas-$sk-1x2-$c" 2 --mnk "$SKINNY" --local cublas --grid 1x2 --comm "$c"
    done
fi

section "summary"
echo "CSVs and logs in $D"
# Summary rows (rank "all") of every run: speed-up and parallel efficiency
# against the 1-rank run of the same kernel and shape.
awk -F, '
    FNR == 1 { delete col }
    /^#/ { next }
    !("kernel" in col) { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["rank"] == "all" {
        key = $col["kernel"] " " $col["m"] "x" $col["n"] "x" $col["k"]
        n++; K[n] = key; G[n] = $col["gflops"]; R[n] = $col["ranks"]
        GR[n] = $col["grid"]; C[n] = $col["comm"]; V[n] = $col["verified"]
        CO[n] = $col["comm_ms"]; CP[n] = $col["compute_ms"]; T[n] = $col["time_ms"]
        CT[n] = ("comm_total_ms" in col) ? $col["comm_total_ms"] : "NA"
        PW[n] = $col["panel"]
        if (R[n] == 1) base[key] = G[n]
    }
    END {
        printf "%-28s %-5s %-10s %6s %10s %9s %9s %9s %10s %8s %7s %5s\n", "kernel shape", "grid",
               "comm", "panel", "GFLOP/s", "time_ms", "compute", "exposed", "comm_total",
               "speedup", "eff", "ok"
        for (i = 1; i <= n; i++) {
            sp = (K[i] in base) && base[K[i]] > 0 ? G[i] / base[K[i]] : 0
            printf "%-28s %-5s %-10s %6s %10.0f %9.2f %9.2f %9.2f %10s %8s %7s %5s\n", K[i], GR[i], C[i],
                   PW[i], G[i], T[i], CP[i], CO[i], CT[i], sp ? sprintf("%.2fx", sp) : "NA",
                   sp ? sprintf("%.0f%%", 100 * sp / R[i]) : "NA", V[i] == 1 ? "yes" : "NO"
        }
    }' "$D"/*.csv
exit $status
