#!/usr/bin/env python3
"""analyse.py - does a kernel run slower once the range profiler is on?

  analyse.py DIR      (DIR holds X-R.csv and Y-R.csv, R = 1, 2, ...)

X-R: gemmprof trace --per-launch --launch-skip 40 of the MLP loop: no
launch is profiled before each configuration's 41st, so the profiler is
enabled partway through.  Y-R: the same loop, --metrics none --per-launch.
The two runs launch the same sequence (checked), so launch j is the same
work in both.  For each configuration (kernel, grid, block):
  early/late   the median of its launches before X's first profiled launch
               and after X's last, in X and in Y; X's late/early change
               less Y's is what being profiled-for does to later launches;
  X/Y          the mean over the launches X timed (all but its profiled
               ones) against Y's mean over the same launches.
Means and standard errors over the R pairs, in %."""
import collections
import csv
import glob
import math
import os
import statistics as st
import sys


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith('#')))
    return sorted(rows, key=lambda r: int(r['correlation_id']))


def key(r):
    return (r['kernel'], r['grid'], r['block_threads'])


def mse(v):
    return (100 * st.mean(v), 100 * st.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float('nan'))


def main(d):
    shift = collections.defaultdict(list)       # X late/early - Y late/early
    same = collections.defaultdict(list)        # X mean / Y mean, same launches
    us = collections.defaultdict(list)
    pairs = sorted(glob.glob(os.path.join(d, 'X-*.csv')))
    for xf in pairs:
        X, Y = load(xf), load(xf.replace('X-', 'Y-'))
        assert [key(r) for r in X] == [key(r) for r in Y], xf + ': not the same launches'
        prof = [j for j, r in enumerate(X) if r['profiled'] == '1']
        first, last = prof[0], prof[-1]
        timed = [j for j, r in enumerate(X) if r['time_source'] == 'activity']
        by = collections.defaultdict(lambda: collections.defaultdict(list))
        for j in timed:
            k = key(X[j])
            tx, ty = float(X[j]['time_ms']), float(Y[j]['time_ms'])
            by[k]['x'].append(tx)
            by[k]['y'].append(ty)
            if j < first:
                by[k]['xe'].append(tx)
                by[k]['ye'].append(ty)
            elif j > last:
                by[k]['xl'].append(tx)
                by[k]['yl'].append(ty)
        for k, v in by.items():
            us[k].append(st.median(v['y']) * 1e3)
            same[k].append(st.mean(v['x']) / st.mean(v['y']) - 1)
            if len(v['xe']) >= 3 and len(v['xl']) >= 3:
                shift[k].append(st.median(v['xl']) / st.median(v['xe']) -
                                st.median(v['yl']) / st.median(v['ye']))
    print(f'{len(pairs)} pairs; X profiled launches {first}..{last} of {len(X)} (the last pair)')
    print(f'{"kernel":58} {"us":>6} {"profiler-on shift %":>20} {"X/Y same launches %":>20}')
    for k in sorted(same, key=lambda k: -st.median(us[k])):
        s = '%+7.2f +- %4.2f' % mse(shift[k]) if len(shift[k]) > 1 else '-'
        print(f'{k[0].replace("void ", "")[:58]:58} {st.median(us[k]):6.1f} {s:>20} '
              f'{"%+7.2f +- %4.2f" % mse(same[k]):>20}')


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '.')
