#!/usr/bin/env python3
"""trace-scale-summary.py - the summary of scripts/trace-scale.sh's runs.

  trace-scale-summary.py WORKDIR

Reads WORKDIR/times.txt ("label seconds exit" lines), the gemmprof run
files (b-*.csv default sampling, c-*.csv --metrics none, one row a launch
since --per-launch was added to c, g.csv compiled, h.csv/h-all.csv NVTX)
and ncu's CSV logs (d-ncu-*.csv per-launch-config, one a round; e-ncu.csv
every launch with b's counters; f-ncu.csv every launch, one metric), and
prints the table for issue 29."""
import csv
import glob
import os
import re
import statistics
import sys


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith('#')))


def meta(path, key):
    if os.path.exists(path):
        for l in open(path):
            if l.startswith(f'# {key}: '):
                return l[len(key) + 4:].strip()
    return None


def ncu_launches(path):
    """Distinct launch IDs in ncu's --csv log, and whether it ended."""
    if not os.path.exists(path):
        return 0
    ids = set()
    with open(path) as f:
        for r in csv.DictReader(l for l in f if l.startswith('"')):
            i = r.get('ID', '').strip()
            if i.isdigit():
                ids.add(int(i))
    return len(ids)


def warnings_in(path):
    if not os.path.exists(path):
        return ''
    return ' | '.join(l.strip() for l in open(path, errors='replace') if 'gemmprof:' in l)[:400]


def launches(path):
    return sum(int(r['launches']) for r in rows(path))


def loop_seconds(path):
    """The program's own loop time: trace-mlp.py's "N iterations in T s"."""
    if os.path.exists(path):
        for l in open(path, errors='replace'):
            m = re.search(r'iterations(?: compiled)? in ([0-9.]+) s', l)
            if m:
                return float(m.group(1))
    return None


def loop_overheads(w):
    """Per round: the loop time of b and d less the round's plain run's.
    Profiling happens inside the loop; python, torch and CUDA start-up
    (and each tool's own, outside it) vary by seconds from run to run."""
    out = []
    for i in range(1, 100):
        a, b, d = (loop_seconds(os.path.join(w, f'{p}-{i}.log'))
                   for p in ('a-plain', 'b-trace', 'd-ncu-per-config'))
        if None not in (a, b, d) and d > a:
            out.append((b - a, d - a))
    return out


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main(w):
    times = {}
    codes = {}
    for l in open(os.path.join(w, 'times.txt')):
        label, sec, rc = l.split()
        times[label] = float(sec)
        codes[label] = int(rc)

    def med(prefix):
        v = [t for k, t in times.items() if k.startswith(prefix)]
        return (statistics.median(v), min(v), max(v)) if v else (None, None, None)

    out = []
    say = out.append
    warnings = lambda f: warnings_in(os.path.join(w, f))
    first = lambda f: open(os.path.join(w, f)).read().strip() if os.path.exists(os.path.join(w, f)) else '?'
    say(f'trace-scale: {first("gpu.txt")}; torch {first("torch.txt")}; '
        f'{first("ncu-version.txt").splitlines()[-1] if first("ncu-version.txt") != "?" else "ncu ?"}; '
        f'commit {first("commit.txt")}')
    bad = [k for k, c in codes.items() if c != 0]
    if bad:
        say(f'NONZERO EXIT: {", ".join(f"{k} ({codes[k]})" for k in sorted(bad))}'
            f' (124: timed out)')
    # launches
    b, c = os.path.join(w, 'b-1.csv'), os.path.join(w, 'c-1.csv')
    nb, nc = launches(b), launches(c)
    ne, nd = ncu_launches(os.path.join(w, 'e-ncu.csv')), (ncu_launches(os.path.join(w, 'd-ncu-1.csv')) or
                                                               ncu_launches(os.path.join(w, 'd-ncu.csv')))
    nf = ncu_launches(os.path.join(w, 'f-ncu.csv'))
    e_done, f_done = codes.get('e-ncu-all') == 0, codes.get('f-ncu-count') == 0
    unfinished = ' (DID NOT FINISH: a lower bound)'
    say('')
    say('launches')
    say(f'  gemmprof trace (default) sum(launches) {nb} in {len(rows(b))} rows; '
        f'--metrics none {nc}; profiled {sum(int(r["profiled"]) for r in rows(b))}')
    say(f'  ncu every launch: {ne} launches profiled{"" if e_done else unfinished}; '
        f'ncu per-launch-config: {nd} launches profiled')
    if 'f-ncu-count' in codes:
        say(f'  ncu every launch, gpu__time_duration only (its count): {nf} launches{"" if f_done else unfinished}')
    counted = [n for n, done in ((ne, e_done), (nf, f_done)) if done]
    say(f'  gemmprof == ncu: {"YES" if counted and all(nb == n for n in counted) else "NO"}')
    # overheads
    a = med('a-plain')[0]
    say('')
    say(f'wall time (s; median of {len([k for k in times if k.startswith("a-plain")])}, min-max)')
    for label, name in (('a-plain', 'a plain'), ('b-trace', 'b gemmprof trace'),
                        ('c-none', 'c gemmprof trace --metrics none'),
                        ('d-ncu-per-config', 'd ncu per-launch-config count 1')):
        m, lo, hi = med(label)
        if m is not None:
            say(f'  {name:36} {m:7.2f}  ({lo:.2f}-{hi:.2f})  overhead {m - a:+.2f}')
    if 'e-ncu-all' in times:
        say(f'  {"e ncu every launch":36} {times["e-ncu-all"]:7.2f}  overhead '
            f'{times["e-ncu-all"] - a:+.2f}'
            f'{"" if codes["e-ncu-all"] == 0 else "  (exit %d)" % codes["e-ncu-all"]}')
    ob, od = med('b-trace')[0] - a, (med('d-ncu-per-config')[0] or a) - a
    if od > 0:
        # the same ratio round by round (each b and d against its round's
        # plain run), for its spread
        per = sorted((times[f'b-trace-{i}'] - times[f'a-plain-{i}']) /
                     (times[f'd-ncu-per-config-{i}'] - times[f'a-plain-{i}'])
                     for i in range(1, 100) if f'd-ncu-per-config-{i}' in times and
                     f'b-trace-{i}' in times and times[f'd-ncu-per-config-{i}'] > times[f'a-plain-{i}'])
        say(f'  trace overhead / d-ncu-per-config overhead = {ob / od:.3f} (goal <= 0.5; medians); '
            f'round by round {", ".join(f"{x:.2f}" for x in per)}')
        cost = meta(b, 'profiling_cost') or ''
        say(f'  profiled launches: gemmprof {sum(int(r["profiled"]) for r in rows(b))} (one per kernel '
            f'and configuration), ncu {nd}; ncu adds {od / max(nd, 1) * 1e3:.0f} ms a profiled '
            f'launch; gemmprof: {cost[:160]}')
    loops = loop_overheads(w)
    if loops:
        lb = statistics.median(x for x, _ in loops)
        ld = statistics.median(y for _, y in loops)
        say(f'  inside the program loop (its own timer; start-up left out): trace adds {lb:.2f} s, '
            f'ncu {ld:.2f} s (medians of {len(loops)} rounds): ratio {lb / ld:.3f}; round by round '
            f'{", ".join(f"{x / y:.2f}" for x, y in sorted(loops, key=lambda t: t[0] / t[1]))}')
    if 'e-ncu-all' in times and times['e-ncu-all'] - a > 0:
        r = ob / (times['e-ncu-all'] - a)
        extra = ''
        if not e_done and ne > 0:
            est = (times['e-ncu-all'] - a) * nb / ne      # ncu's cost per launch x all launches
            extra = f'; ncu stopped after {ne} of {nb}: estimated full overhead {est:.0f} s, ratio {ob / est:.3f}'
        say(f'  trace overhead / e-ncu-all overhead = {r:.3f} (goal <= 0.05){extra}')
    # per-configuration time against --metrics none: the mean time of a
    # launch (time_total_ms / reps, the unprofiled launches), pooled over
    # the REPS runs of each.  Not the median: one configuration may be
    # launched with two problem sizes (a kernel of two GEMM shapes with one
    # grid), and the median of such an even two-valued set flips from one
    # value to the other when the profiled launch is left out (measured:
    # +31% on the H200 for an equal mean).  The runs of --metrics none
    # against each other give the noise floor.
    say('')
    key = lambda r: (r['kernel'], r['config'], r['smem_per_block'], r['graph_node_id'])
    runs = lambda p: sorted(glob.glob(os.path.join(w, p + '-[0-9]*.csv')))

    # c's launches less each configuration's first (which b profiles and so
    # does not time), when c has one row a launch (--per-launch)
    def same_launches(f):
        seen, out = set(), []
        for r in sorted(rows(f), key=lambda r: int(r['correlation_id'])):
            if key(r) in seen or r['graph_id'] != 'NA':
                out.append(r)
            seen.add(key(r))
        return out

    def pooled(files, pick=rows):
        tot = {}
        for f in files:
            for r in pick(f):
                t, n = num(r['time_total_ms']), num(r['reps'])
                if t is not None and n:
                    a = tot.setdefault(key(r), [0.0, 0, r])
                    a[0] += t
                    a[1] += int(n)
        return {k: (v[0] / v[1], v[2]) for k, v in tot.items() if v[1] > 0}

    # The standard error of a deviation, in points: from the run-to-run
    # spread of each side's per-run mean (how far a deviation is from what
    # the runs' own scatter explains); None with fewer than 2 runs a side.
    def run_means(files, pick=rows):
        out = {}
        for f in files:
            for k, (t, _) in pooled([f], pick).items():
                out.setdefault(k, []).append(t)
        return out

    def devs(x, y, xm=None, ym=None):
        out = []
        for k, (t, r) in x.items():
            if k in y:
                u = y[k][0]
                se = None
                if xm and ym and len(xm.get(k, [])) > 1 and len(ym.get(k, [])) > 1:
                    a, b = xm[k], ym[k]
                    se = 100 * (statistics.variance(a) / len(a) +
                                statistics.variance(b) / len(b)) ** 0.5 / u
                out.append((abs(t / u - 1) * 100, (t / u - 1) * 100, r['kernel'][:60], u,
                            r['time_source'], int(num(r['launches']) or 1), se))
        return out

    bs, cs = runs('b'), runs('c')
    per_launch = bool(cs) and 'per-launch' in (meta(cs[0], 'rows') or '')

    def verdict(what, dev):
        long_dev = [x for x in dev if x[3] >= 0.010]
        if not long_dev:
            return long_dev
        m = max(long_dev)
        within = sum(1 for x in long_dev if x[0] <= 2)
        say(f'per-configuration mean time of a launch, default vs --metrics none, {what} ({len(bs)} and '
            f'{len(cs)} runs pooled): {len(long_dev)} configurations of >= 10 us, {within} within 2%, '
            f'max deviation {m[1]:+.2f}% ({m[2]}, {m[3] * 1e3:.1f} us) (goal 2%); '
            f'{"OK" if m[0] <= 2 else "OVER"}')
        over = [x for x in long_dev if x[0] > 2]
        if over and all(x[6] is not None for x in over):
            sure = [x for x in over if x[0] - 2 > 2 * x[6]]
            say(f'  beyond 2% by more than 2 standard errors of the runs\' scatter: {len(sure)} of '
                f'the {len(over)} over 2% ({", ".join(f"{x[1]:+.2f} +- {x[6]:.2f}" for x in over)})')
        return long_dev

    both = devs(pooled(bs), pooled(cs), run_means(bs), run_means(cs))
    long_dev = verdict('all of its launches', both)
    short_dev = [x for x in both if x[3] < 0.010]
    if per_launch:
        # the same launches on both sides: what profiling does to the
        # launches it times, without the first launch's own (cold) time
        verdict("the same launches (c less each configuration's first, which b profiles)",
                devs(pooled(bs), pooled(cs, same_launches), run_means(bs),
                     run_means(cs, same_launches)))
    else:
        say('  (c has one row a configuration: the same-launch comparison needs --per-launch)')
    floor = [x[0] for i in range(len(cs)) for j in range(i + 1, len(cs))
             for x in devs(pooled([cs[i]]), pooled([cs[j]])) if x[3] >= 0.010]
    if floor:
        say(f'  noise floor: --metrics none run against run, the same configurations: max '
            f'{max(floor):.2f}%, median {statistics.median(floor):.2f}%')
    if short_dev:
        v = sorted(x[1] for x in short_dev)
        say(f'  {len(short_dev)} configurations under 10 us: deviation median {statistics.median(v):+.2f}%, '
            f'min {v[0]:+.2f}%, max {v[-1]:+.2f}% (a configuration launched once is timed '
            f'from its profiled launch: {sum(1 for x in short_dev + long_dev if x[5] == 1)} of them)')
    for x in sorted(long_dev + short_dev, reverse=True)[:8]:
        se = f'+-{x[6]:4.2f}' if x[6] is not None else '      '
        say(f'    {x[1]:+7.2f}% {se}  {x[3] * 1e3:9.2f} us  {x[4]:18} x{x[5]:<5} {x[2]}')
    # torch.compile reduce-overhead
    g = os.path.join(w, 'g.csv')
    gr = [r for r in rows(g) if r['graph_id'] != 'NA']
    say('')
    say(f'torch.compile(mode="reduce-overhead"): {launches(g)} launches in {len(rows(g))} rows; '
        f'{len(gr)} graph-node rows, {sum(int(r["launches"]) for r in gr)} graph kernel launches, '
        f'{len({r["graph_id"] for r in gr})} graphs: graph kernels {"APPEAR" if gr else "DO NOT APPEAR"}')
    # NVTX
    h, ha = os.path.join(w, 'h.csv'), os.path.join(w, 'h-all.csv')
    say(f'--nvtx-include train_step: {launches(h)} launches (of {launches(ha)} in the same loop traced '
        f'whole; {meta(h, "launches")}); gemmprof said: {warnings("h-nvtx.log") or "nothing"}')
    print('\n'.join(out))


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '.')
