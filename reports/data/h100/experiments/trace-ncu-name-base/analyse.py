#!/usr/bin/env python3
"""analyse.py - gemmprof trace against ncu --filter-mode per-launch-config with its default
--kernel-name-base (function) and with demangled: launches each profiles, wall time and the
program's own loop time, round by round.

  analyse.py DIR     (DIR: times.txt, a-plain-R.log, b-trace-R.log, d-ncu-per-config-R.log,
                      n-ncu-demangled-R.log, d-ncu-R.csv and n-ncu-R.csv)"""
import csv
import os
import re
import statistics as st
import sys


def loop(path):
    m = re.search(r'iterations in ([\d.]+) s', open(path).read())
    return float(m.group(1))


def profiled(path):
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    return len({r[0] for r in rows[1:] if r and r[0].isdigit()})


def main(d):
    wall = {l.split()[0]: float(l.split()[1]) for l in open(os.path.join(d, 'times.txt'))}
    rounds = sorted({int(k.rsplit('-', 1)[1]) for k in wall if k.startswith('a-plain')})
    labels = ('a-plain', 'b-trace', 'd-ncu-per-config', 'n-ncu-demangled')
    print('profiled launches: ncu function base %d, ncu demangled base %d (gemmprof: 32)' %
          (profiled(os.path.join(d, 'd-ncu-1.csv')), profiled(os.path.join(d, 'n-ncu-1.csv'))))
    for what, get in (('wall', lambda l, r: wall['%s-%d' % (l, r)]),
                      ('loop', lambda l, r: loop(os.path.join(d, '%s-%d.log' % (l, r))))):
        per = []
        for r in rounds:
            a, b, f, n = (get(l, r) for l in labels)
            per.append((b - a, f - a, n - a))
            print('%s round %d: plain %.2f, trace %.2f, ncu %.2f, ncu demangled %.2f s: trace / ncu %.3f, '
                  'trace / ncu demangled %.3f' % (what, r, a, b, f, n, (b - a) / (f - a), (b - a) / (n - a)))
        mb, mf, mn = (st.median(x[i] for x in per) for i in range(3))
        print('%s medians of the overheads: trace %.2f, ncu %.2f, ncu demangled %.2f s: ratios %.3f and %.3f'
              % (what, mb, mf, mn, mb / mf, mb / mn))


if __name__ == '__main__':
    main(sys.argv[1])
