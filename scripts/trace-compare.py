#!/usr/bin/env python3
"""trace-compare.py - check gemmprof trace's rows (scripts/trace-check.sh,
tests/trace_gpu.sh).

  trace-compare.py expect RUN.csv EXPECT.txt
      every "KERNEL METRIC VALUE" line of EXPECT.txt (written by the fixture
      app, tests/fixtures/trace/app.cu) against every row whose kernel
      contains KERNEL: the counter must equal VALUE exactly.
  trace-compare.py ncu RUN.csv NCU.csv [--tol PCT]
      ncu --csv output (its details page, one line per launch and metric) of
      the same program and metrics: launches paired by kernel name and
      order; the ratio trace/ncu per metric.
      Instruction counts (..._inst_executed_...) must be exact, the rest
      within --tol percent (default 2).
  trace-compare.py times RUN.csv UNPROFILED.csv
      time_ms of the same launches in two traces of one program, the second
      with --metrics none (no replay): how far a profiled launch's Activity
      duration is from an unprofiled one.  Informational (exit 0).
  trace-compare.py flops RUN.csv REGEX FLOPS [--tol PCT]
      rows whose kernel matches REGEX: counted flop_count against FLOPS
      (an expression such as 2*4096**3), within --tol percent (default 1).

Each prints a table and exits 1 if a check fails, 2 on bad input."""
import csv
import math
import re
import sys

from runfile import rows

USAGE = __doc__.split('\n\n')[1]


def die(msg):
    print('trace-compare.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def num(s):
    s = (s or '').replace(',', '').strip()
    if s in ('', 'NA', 'n/a'):
        return math.nan
    return float(s)


def base(name):
    """The name without return type, parameters and blanks, which both
    demanglers spell alike: "void chain<ffma_step, float>(float *, ...)" ->
    "chain<ffma_step,float>" (parameters differ: "const float *" in ncu,
    "float const*" in libstdc++)."""
    name = re.sub(r'^void\s+', '', name.strip())
    depth = 0
    for i, c in enumerate(name):
        depth += (c == '<') - (c == '>')
        if c == '(' and depth == 0:
            name = name[:i]
            break
    return re.sub(r'\s+', '', name)


def cmd_expect(run, expect):
    table = list(rows(run))
    bad = 0
    with open(expect) as f:
        want = [l.split() for l in f if l.strip()]
    for kernel, metric, value in want:
        hits = [r for r in table if kernel in r['kernel']]
        if not hits:
            print(f'MISSING  {kernel}: no row')
            bad += 1
            continue
        for r in hits:
            got = num(r.get(metric))
            ok = got == float(value)
            bad += not ok
            print(f'{"ok " if ok else "BAD"}  {kernel:18} {metric:55} '
                  f'{got:.0f} (want {float(value):.0f}) corr {r["correlation_id"]}')
    return 1 if bad else 0


def ncu_rows(path):
    """ncu --csv (details page): one line per launch and metric ("ID",
    "Kernel Name", "Metric Name", "Metric Value", ...) -> one dict per
    launch, in launch order."""
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    launches = {}
    for r in csv.DictReader(lines):
        if not r.get('ID', '').strip().isdigit():
            continue
        d = launches.setdefault(int(r['ID']), {'Kernel Name': r['Kernel Name']})
        d[r['Metric Name']] = r['Metric Value']
    return [launches[i] for i in sorted(launches)]


def paired(run, other, name='Kernel Name'):
    """(kernel base, n-th launch) -> (trace row, the other's row)."""
    seen, ours = {}, {}
    for r in rows(run):
        k = base(r['kernel'])
        i = seen.get(k, 0)
        seen[k] = i + 1
        ours[(k, i)] = r
    seen = {}
    for r in other:
        k = base(r[name])
        i = seen.get(k, 0)
        seen[k] = i + 1
        if (k, i) in ours:
            yield k, i, ours[(k, i)], r


def cmd_ncu(run, ncu_path, tol):
    ncu = ncu_rows(ncu_path)
    if not ncu:
        die(f'{ncu_path}: no ncu rows')
    metrics = sorted({m for launch in ncu for m in launch if '__' in m})
    bad = n = 0
    print(f'{"kernel":24} {"#":>2} {"metric":60} {"trace":>16} {"ncu":>16} ratio')
    for k, i, ours, theirs in paired(run, ncu):
        for m in metrics:
            a, b = num(ours.get(m)), num(theirs.get(m))
            if math.isnan(a) or math.isnan(b):
                continue
            exact = '_inst_executed_' in m or '_ops_path_' in m
            ratio = a / b if b else (1.0 if a == 0 else math.inf)
            ok = a == b if exact else abs(ratio - 1) <= tol / 100
            n += 1
            bad += not ok
            flag = '' if ok else ('  NOT EXACT' if exact else f'  OFF >{tol:g}%')
            print(f'{k[:24]:24} {i:2} {m:60} {a:16.6g} {b:16.6g} {ratio:.4f}{flag}')
    print(f'{n} values compared, {bad} outside ({tol:g}% or exact for counts)')
    return 1 if bad or n == 0 else 0


def cmd_times(run, unprofiled):
    print(f'{"kernel":24} {"#":>2} {"profiled ms":>12} {"unprofiled ms":>14} ratio  records')
    for k, i, a, b in paired(run, list(rows(unprofiled)), 'kernel'):
        x, y = num(a['time_ms']), num(b['time_ms'])
        print(f'{k[:24]:24} {i:2} {x:12.5g} {y:14.5g} {x / y if y else math.nan:6.3f}  '
              f'{a["reps"]}')
    return 0


def cmd_flops(run, regex, flops, tol):
    if not re.fullmatch(r'[0-9*+() .]+', flops):
        die(f'FLOPS: "{flops}" is not an arithmetic expression of numbers')
    want = float(eval(flops, {'__builtins__': {}}))
    bad = n = 0
    for r in rows(run):
        if not re.search(regex, r['kernel']):
            continue
        got = num(r['flop_count'])
        ratio = got / want
        ok = abs(ratio - 1) <= tol / 100
        n += 1
        bad += not ok
        print(f'{"ok " if ok else "BAD"}  {r["precision"]:5} flop_count {got:.6g} = '
              f'{ratio:.5f} x {flops}  ai_dram {num(r["ai_dram"]):.4g}  '
              f'time {num(r["time_ms"]):.4g} ms  {r["kernel"][:110]}')
    if n == 0:
        print(f'BAD  no row matches /{regex}/')
    return 1 if bad or n == 0 else 0


def main(argv):
    tol = None
    if '--tol' in argv:
        i = argv.index('--tol')
        tol = float(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) == 3 and argv[0] == 'expect':
        return cmd_expect(argv[1], argv[2])
    if len(argv) == 3 and argv[0] == 'ncu':
        return cmd_ncu(argv[1], argv[2], 2.0 if tol is None else tol)
    if len(argv) == 3 and argv[0] == 'times':
        return cmd_times(argv[1], argv[2])
    if len(argv) == 4 and argv[0] == 'flops':
        return cmd_flops(argv[1], argv[2], argv[3], 1.0 if tol is None else tol)
    die('usage:\n' + USAGE)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
