#!/usr/bin/env bash
# build.sh - what `make` builds for which GPU (no compiler run: `make -s
# arch` prints the code objects ARCH gives), and its one-line refusals: a
# toolkit older than CUDA 13.0, a GPU older than 7.5, a malformed ARCH.
# nvidia-smi and nvcc are stand-in scripts, so this runs without a GPU.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$TMP/gpu"
# a make of its own, not a sub-make of `make test`'s
unset MAKEFLAGS MFLAGS MAKELEVEL
# fake_smi CC...: an nvidia-smi that reports these compute capabilities
fake_smi() {
    { echo '#!/bin/sh'; for cc in "$@"; do echo "echo $cc"; done; } >"$TMP/gpu/nvidia-smi"
    chmod +x "$TMP/gpu/nvidia-smi"
}
arch() { make -s -C "$root" arch "$@" 2>&1; }

# no nvidia-smi at all (CI): every supported architecture (src/arch/
# archs.def), PTX of the newest
# (NVIDIA_SMI names one that does not exist: the GPU machine has a real one)
got=$(arch NVIDIA_SMI="$TMP/gpu/no-nvidia-smi")
want=$(arch_all_codes)
[ "$got" = "$want" ] && pass build/no_gpu_builds_every_arch || fail build/no_gpu_builds_every_arch "got '$got'"

fake_smi 9.0
got=$(PATH="$TMP/gpu:$PATH" arch)
[ "$got" = "sm_90 sm_90a compute_90" ] && pass build/h100_builds_sm_90 || fail build/h100_builds_sm_90 "got '$got'"

fake_smi 8.6 9.0 8.6
got=$(PATH="$TMP/gpu:$PATH" arch)
[ "$got" = "sm_86 sm_90 sm_90a compute_90" ] && pass build/mixed_gpus_build_each || fail build/mixed_gpus_build_each "got '$got'"

got=$(arch ARCH="sm_80 sm_90")
[ "$got" = "sm_80 sm_90 sm_90a compute_90" ] && pass build/arch_list || fail build/arch_list "got '$got'"
got=$(arch ARCH=compute_80)
[ "$got" = "compute_80" ] && pass build/ptx_only || fail build/ptx_only "got '$got'"
got=$(arch ARCH=sm_120)
[ "$got" = "sm_120 compute_120" ] && pass build/blackwell_has_no_sm_90a || fail build/blackwell_has_no_sm_90a "got '$got'"

# one older than the oldest of src/arch/archs.def (75 -> 7.0)
min=$(arch_ccs | head -1)
fake_smi "$((min / 10 - 1)).0"
expect build/old_gpu_one_line 2 "this GPU is sm_$((min / 10 - 1))0: CUDA 13.0 and gemmprof support sm_$min \\(compute capability $((min / 10)).$((min % 10))\\) and newer" -- \
    env PATH="$TMP/gpu:$PATH" make -s -C "$root" arch
expect build/bad_arch_one_line 2 "ARCH: 'gfx90a' is not sm_XY or compute_XY" -- make -s -C "$root" arch ARCH="sm_80 gfx90a"
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.4, V12.4.131"\n' >"$TMP/nvcc"
chmod +x "$TMP/nvcc"
expect build/old_toolkit_one_line 2 'needs the CUDA toolkit 13.0 or newer: .*nvcc is 12.4' -- \
    make -s -C "$root" arch NVCC="$TMP/nvcc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && pass build/old_toolkit_is_one_line || fail build/old_toolkit_is_one_line "$(cat "$TMP/err")"
