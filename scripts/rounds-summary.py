#!/usr/bin/env python3
"""rounds-summary.py - the same kernels measured in several runs (rounds):
per kernel and shape, the median, min and max of TFLOP/s and of % of
cuBLAS, how many rounds reach a goal share of cuBLAS, and % of a ceiling.

    rounds-summary.py [--goal PCT] [--ceiling GFLOPS] RUN.csv...

Why: on the H200 one run says little about a few percent (the clock moves
with power, for cuBLAS too); report the spread, not one number.  Only
verified rows count; a kernel missing from a round is just not counted.
"""
import argparse
import csv
import statistics
import sys

from runfile import shape, verified_rows


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


if __name__ == '__main__':
    try:
        main()
    except (OSError, KeyError, ValueError, csv.Error) as e:
        print(f'{sys.argv[0]}: {type(e).__name__}: {e}', file=sys.stderr)
        sys.exit(2)
