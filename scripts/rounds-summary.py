#!/usr/bin/env python3
"""rounds-summary.py - the same kernels measured in several runs (rounds):
per kernel and shape, the median, min and max of TFLOP/s and of % of
cuBLAS, how many rounds reach a goal share of cuBLAS, and % of a ceiling.

    rounds-summary.py [--goal PCT] [--ceiling GFLOPS] RUN.csv...

Why: on the H200 one run says little about a few percent (the clock moves
with power, for cuBLAS too); report the spread, not one number.  Only
verified rows count; a kernel missing from a round is just not counted.
Rows measured with --energy get a second table: the sustained speed (the
kernel back to back for the window) as % of the same round's cuBLAS of
that precision, the board's power, and joules per launch against cuBLAS's.
"""
import argparse
import csv
import statistics
import sys

from runfile import shape, verified_rows

REFERENCE = {'fp32': 'cublas', 'tf32': 'cublas_tf32', 'fp64': 'cublas_fp64'}


def num(r, c):
    v = r.get(c, 'NA')
    return float('nan') if v in ('NA', '', None) else float(v)


def sustained(runs, goal):
    """Per kernel and shape, over rounds: sustained % of cuBLAS (cuBLAS's
    sustained time / the kernel's, same round), watts, J a launch and J as
    % of cuBLAS's."""
    d = {}
    for f in runs:
        rs = [r for r in verified_rows(f) if num(r, 'sustained_ms') == num(r, 'sustained_ms')]
        ref = {(r['kernel'], shape(r)): r for r in rs}
        for r in rs:
            cb = ref.get((REFERENCE.get(r['precision'], ''), shape(r)))
            if not cb:
                continue
            d.setdefault((r['kernel'], 'x'.join(map(str, shape(r)))), []).append((
                100 * num(cb, 'sustained_ms') / num(r, 'sustained_ms'), num(r, 'power_w'),
                num(r, 'energy_j'), 100 * num(r, 'energy_j') / num(cb, 'energy_j')))
    if not d:
        return
    print(f'# sustained (--energy window): % of cuBLAS = cuBLAS sustained time / the kernel\'s, same round')
    print(f'{"kernel":22} {"shape":16} {"n":>2} {"%cuBLAS med":>11} {"[min-max]":>15} {">=goal":>6}'
          f' {"W med":>6} {"J/launch med":>12} {"J %cuBLAS":>9} {"[min-max]":>15}')
    for (k, sh), v in d.items():
        p, w, j, jp = ([x[i] for x in v] for i in range(4))
        print(f'{k:22} {sh:16} {len(v):2} {statistics.median(p):11.2f} [{min(p):6.2f}-{max(p):6.2f}]'
              f' {sum(x >= goal for x in p):>3}/{len(p):<2} {statistics.median(w):6.1f}'
              f' {statistics.median(j):12.4f} {statistics.median(jp):9.2f} [{min(jp):6.2f}-{max(jp):6.2f}]')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--goal', type=float, default=90.0, help='%% of cuBLAS (default 90)')
    ap.add_argument('--ceiling', type=float, help='GFLOP/s to express TFLOP/s against')
    ap.add_argument('runs', nargs='+')
    a = ap.parse_args()
    d = {}
    for f in a.runs:
        for r in verified_rows(f):
            if r['gflops'] == 'NA':
                continue
            key = (r['kernel'], 'x'.join(map(str, shape(r))))
            pct = float(r['pct_cublas']) if r['pct_cublas'] != 'NA' else float('nan')
            d.setdefault(key, []).append((float(r['gflops']) / 1000, pct))
    print(f'# {len(a.runs)} runs: ' + ' '.join(a.runs))
    ceil = f' {"% ceil":>7}' if a.ceiling else ''
    print(f'{"kernel":22} {"shape":16} {"n":>2} {"TFLOP/s med":>11} {"[min-max]":>15}'
          f' {"%cuBLAS med":>11} {"[min-max]":>15} {">=goal":>6}{ceil}')
    for (k, sh), v in d.items():
        g = [x for x, _ in v]
        p = [y for _, y in v]
        c = f' {100 * statistics.median(g) * 1000 / a.ceiling:7.1f}' if a.ceiling else ''
        print(f'{k:22} {sh:16} {len(v):2} {statistics.median(g):11.2f} [{min(g):6.2f}-{max(g):6.2f}]'
              f' {statistics.median(p):11.2f} [{min(p):6.2f}-{max(p):6.2f}]'
              f' {sum(x >= a.goal for x in p):>3}/{len(p):<2}{c}')
    sustained(a.runs, a.goal)


if __name__ == '__main__':
    try:
        main()
    except (OSError, KeyError, ValueError, csv.Error) as e:
        print(f'{sys.argv[0]}: {type(e).__name__}: {e}', file=sys.stderr)
        sys.exit(2)
