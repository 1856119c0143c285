#!/usr/bin/env python3
"""mixed-vs-best.py - is the size-dispatched kernel as fast as the best
single tile config at every size, within noise?

    mixed-vs-best.py SWEEP1.csv SWEEP2.csv MIXED1.csv [MIXED2.csv ...]

SWEEP1 is the sweep whose tuning table the mixed runs read: it picks the
best config per size.  SWEEP2, a second sweep of the same configs and
sizes run after it, gives that config's reference GFLOP/s (taking it from
SWEEP1, which chose it as the maximum of several noisy rows, would bias
the reference up).  Noise at a size is measured, not assumed: the largest
of (a) the config's relative difference between the two sweeps, (b) the
mixed kernel's spread (max-min)/median over its runs, and (c) the
reference row's own spread over its timed reps (time_max-time_min)/time.
A size passes when the median mixed GFLOP/s is at least
reference * (1 - noise).  Exit 1 if any size fails, 2 on bad input.
"""
import csv
import statistics
import sys

from runfile import shape, verified_rows


def rows(path):
    # sweep files carry cuBLAS reference rows: tile configs only
    for r in verified_rows(path):
        if r['status'] == 'ok' and not r['kernel'].startswith('cublas'):
            yield r


def main():
    if len(sys.argv) < 4:
        # exit 1 means "a size is below"; a usage error must not read as that
        print(f'usage: {sys.argv[0]} SWEEP1.csv SWEEP2.csv MIXED.csv...', file=sys.stderr)
        return 2
    s1 = {}
    for r in rows(sys.argv[1]):
        s1.setdefault(shape(r), {})[r['config']] = float(r['gflops'])
    s2 = {(shape(r), r['config']): r for r in rows(sys.argv[2])}
    mixed = {}
    for p in sys.argv[3:]:
        for r in rows(p):
            mixed.setdefault(shape(r), []).append((float(r['gflops']), r['config']))
    fails = 0
    print(f"{'shape':>16} {'best config':>14} {'sweep1':>9} {'ref':>9} {'mixed med':>9}"
          f" {'ratio':>6} {'noise':>6}  verdict  mixed picked")
    for sh in sorted(s1, key=lambda t: (t[0] * t[1] * t[2], t)):
        cfg, best = max(s1[sh].items(), key=lambda kv: kv[1])
        if sh not in mixed:
            print(f'{sh}: no mixed row'); fails += 1; continue
        g = [x for x, _ in mixed[sh]]
        med = statistics.median(g)
        r2 = s2.get((sh, cfg))
        if r2 is None:
            print(f'{sh}: {cfg} missing from {sys.argv[2]}'); fails += 1; continue
        ref = float(r2['gflops'])
        reps = (float(r2['time_max_ms']) - float(r2['time_min_ms'])) / float(r2['time_ms'])
        noise = max(abs(ref - best) / ref, (max(g) - min(g)) / med, reps)
        ok = med >= ref * (1 - noise)
        fails += not ok
        picked = mixed[sh][0][1].split(':')[-1]
        print(f"{'x'.join(map(str, sh)):>16} {cfg:>14} {best:9.1f} {ref:9.1f}"
              f" {med:9.1f} {med / ref:6.3f} {noise:6.3f}  {'ok' if ok else 'BELOW':7}  {picked}")
    print(f'{len(s1) - fails} of {len(s1)} sizes: mixed >= best single config within noise')
    return 1 if fails else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except (OSError, KeyError, ValueError, csv.Error) as e:
        print(f'{sys.argv[0]}: {type(e).__name__}: {e}', file=sys.stderr)
        sys.exit(2)
