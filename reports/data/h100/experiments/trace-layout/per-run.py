#!/usr/bin/env python3
"""per-run.py - each traced run's mean time of a launch against --metrics none's, per
configuration of 10 us or more, one column per run (the pooled means hide whether a
deviation is one run's or every run's).

  per-run.py DIR PREFIX...    (DIR holds PREFIX-R.csv for each PREFIX, and c-R.csv:
                               --metrics none --per-launch runs)

A PREFIX run's time is its rows' time_total_ms / reps (the unprofiled launches); c's is
the mean over each configuration's launches less its first (the one a default run
profiles), averaged over the c runs."""
import collections
import csv
import glob
import os
import statistics as st
import sys


def rows(path):
    # errors="replace": the run files of ../trace-prime/s7b hold a '# counters:' line of
    # invalid UTF-8, written by the first version of that experiment's patch (its README)
    with open(path, errors="replace") as f:
        return list(csv.DictReader(l for l in f if not l.startswith('#')))


def key(r):
    return (r['kernel'], r['config'], r['smem_per_block'], r['graph_node_id'])


def per_config(d, prefix):
    out = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(d, prefix + '-[0-9]*.csv'))):
        for r in rows(f):
            try:
                out[key(r)].append(float(r['time_total_ms']) / float(r['reps']))
            except (ValueError, ZeroDivisionError):
                pass
    return out


def none_runs(d):
    out = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(d, 'c-[0-9]*.csv'))):
        seen, acc = set(), collections.defaultdict(list)
        for r in sorted(rows(f), key=lambda r: int(r['correlation_id'])):
            if key(r) in seen:
                acc[key(r)].append(float(r['time_ms']))
            seen.add(key(r))
        for k, v in acc.items():
            out[k].append(st.mean(v))
    return out


def main(d, prefixes):
    c = none_runs(d)
    runs = {p: per_config(d, p) for p in prefixes}
    print('%-58s %8s  %s' % ('configuration (kernel, grid/block)', 'none us',
                             '  '.join('%s: each run against none, %%' % p for p in prefixes)))
    for k in sorted(c, key=lambda k: -st.mean(c[k])):
        ref = st.mean(c[k])
        if ref < 0.010:
            continue
        cols = ['%s [%s]' % (' '.join('%+5.1f' % ((x / ref - 1) * 100) for x in runs[p].get(k, [])), p)
                for p in prefixes]
        cs = ' '.join('%+5.1f' % ((x / ref - 1) * 100) for x in c[k])
        name = k[0].replace('void ', '')[:34] + ' ' + k[1].replace('grid=', '').replace(' block=', '/')
        print('%-58s %8.2f  %s  none itself: %s' % (name[:58], ref * 1e3, '  '.join(cols), cs))


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit('usage: per-run.py DIR PREFIX...')
    main(sys.argv[1], sys.argv[2:])
