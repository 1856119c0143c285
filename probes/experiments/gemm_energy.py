#!/usr/bin/env python3
"""gemm_energy.py - energy per GEMM of gemmprof kernels, from NVML's total
energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ since the driver
loaded) read around whole gemmprof runs.

Why: on the H100 the TF32 rs rung is within 0.3% of cuBLAS at 8192^3 when
ncu locks the clock, but the card sustains a lower clock under it when the
clock is free (reports/data/h100/tf32-bench/ncu-c166d72).  If the rung
spends more energy per GEMM, a power-capped card slows it down more.

Each kernel runs twice per round, with LO and HI timed launches; the
difference of the two runs' energy and wall time is HI - LO launches
alone (set-up, verification and warm-up cancel).  Rounds alternate the
kernels so that temperature drifts hit all of them alike.

    gemm_energy.py [--size N] [--lo 20] [--hi 220] [--rounds 3] KERNEL...
Prints one line per kernel and round, then medians: J per GEMM, average
W over the launches, and the time per launch from the wall clock.
Needs gemmprof at bin/gemmprof (GEMMPROF_BIN) and libnvidia-ml.so.1."""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time


def nvml():
    lib = ctypes.CDLL('libnvidia-ml.so.1')
    if lib.nvmlInit_v2() != 0:
        sys.exit('gemm_energy.py: nvmlInit failed')
    h = ctypes.c_void_p()
    if lib.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(h)) != 0:
        sys.exit('gemm_energy.py: no GPU 0')

    def energy_mj():
        e = ctypes.c_ulonglong()
        if lib.nvmlDeviceGetTotalEnergyConsumption(h, ctypes.byref(e)) != 0:
            sys.exit('gemm_energy.py: the GPU has no energy counter')
        return e.value
    return energy_mj


def run(gp, kernel, size, reps, energy_mj):
    cmd = [gp, '--kernel', kernel, '--size', str(size), '--reps', str(reps),
           '--warmup', '5', '--metrics', 'none', '-o', os.devnull]
    e0, t0 = energy_mj(), time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    e1, t1 = energy_mj(), time.monotonic()
    if p.returncode != 0:
        sys.exit('gemm_energy.py: %s failed: %s' % (' '.join(cmd), p.stderr.strip()[-300:]))
    return (e1 - e0) / 1e3, t1 - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--size', type=int, default=8192)
    ap.add_argument('--lo', type=int, default=20)
    ap.add_argument('--hi', type=int, default=220)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('kernels', nargs='+')
    a = ap.parse_args()
    gp = os.environ.get('GEMMPROF_BIN', 'bin/gemmprof')
    energy_mj = nvml()
    n = a.hi - a.lo
    res = {k: [] for k in a.kernels}
    print('kernel round J/GEMM W ms/launch')
    for r in range(a.rounds):
        for k in a.kernels:
            e_lo, t_lo = run(gp, k, a.size, a.lo, energy_mj)
            e_hi, t_hi = run(gp, k, a.size, a.hi, energy_mj)
            j, s = (e_hi - e_lo) / n, (t_hi - t_lo) / n
            res[k].append((j, j / s, s * 1e3))
            print('%-16s %d %.4f %.0f %.3f' % (k, r, j, j / s, s * 1e3), flush=True)
    flop = 2.0 * a.size ** 3
    print('# medians over %d rounds, %d launches each (%d^3)' % (a.rounds, n, a.size))
    for k, v in res.items():
        j = statistics.median(x[0] for x in v)
        print('%-16s %.4f J/GEMM [%.4f-%.4f]  %.0f W  %.3f ms/launch  %.1f GFLOP/J' % (
            k, j, min(x[0] for x in v), max(x[0] for x in v),
            statistics.median(x[1] for x in v), statistics.median(x[2] for x in v),
            flop / j / 1e9))


if __name__ == '__main__':
    main()
