#!/usr/bin/env python3
"""sass-stats.py - the k loop of an SGEMM kernel as ptxas scheduled it, from
`cuobjdump -sass` text (one function): for each backward branch whose body holds
1024 FFMAs, the instructions and branches in it, the sum of the fixed stall
counts of the control words (stall = bits 41-44 of the second word), the
instructions stalled more than one cycle, and how far each LDS.128's result
is from its first use (instructions).

  sass-stats.py FILE.sass [LO HI]   (LO HI: hex addresses of a path to take
                                     instead of whole loops, e.g. the taken side
                                     of a branch)"""
import collections
import re
import statistics
import sys


def parse(path):
    lines = open(path).read().split('\n')
    out = []
    for i, l in enumerate(lines):
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);\s+/\* (0x[0-9a-f]+) \*/', l)
        if m:
            hi = int(re.search(r'/\* (0x[0-9a-f]+) \*/', lines[i + 1]).group(1), 16)
            out.append((int(m.group(1), 16), m.group(2).strip(), hi))
    return out


def op(text):
    return (text.split()[1] if text.startswith('@') else text.split()[0]).split('.')[0]


def stall(hi):
    return (hi >> 41) & 0xf


def lds_distance(body):
    d = []
    for i, (_, t, _) in enumerate(body):
        if not t.startswith('LDS.128'):
            continue
        n = int(t.split()[1].rstrip(',')[1:])
        regs = {'R%d' % (n + j) for j in range(4)}
        for j in range(i + 1, len(body)):
            src = body[j][1].split(',', 1)[1] if ',' in body[j][1] else ''
            if regs & set(re.findall(r'R\d+', src)):
                d.append(j - i)
                break
    return d


def report(body, what):
    ops = collections.Counter(op(t) for _, t, _ in body)
    slow = collections.Counter('%s s%d' % (op(t), stall(h)) for _, t, h in body if stall(h) > 1)
    d = lds_distance(body)
    print('%s: %d instructions (%d FFMA, %d LDS.128, %d LDGSTS, %d BRA), fixed stalls %d cycles; '
          'stalled > 1: %s' % (what, len(body), ops['FFMA'], sum(1 for _, t, _ in body if t.startswith('LDS.128')),
                               ops['LDGSTS'], ops['BRA'], sum(stall(h) for _, _, h in body),
                               ', '.join('%s x%d' % kv for kv in sorted(slow.items())) or 'none'))
    if d:
        print('  LDS.128 to first use: min %d, median %.1f, max %d instructions' %
              (min(d), statistics.median(d), max(d)))


def main(path, lo=None, hi=None):
    ins = parse(path)
    if lo is not None:
        report([x for x in ins if lo <= x[0] <= hi], '%s %#x-%#x' % (path, lo, hi))
        return
    for a, t, _ in ins:
        m = re.search(r'BRA (0x[0-9a-f]+)', t)
        if m and int(m.group(1), 16) < a:
            body = [x for x in ins if int(m.group(1), 16) <= x[0] <= a]
            if sum(1 for x in body if op(x[1]) == 'FFMA') == 1024:
                report(body, '%s loop %#x-%#x' % (path, int(m.group(1), 16), a))


if __name__ == '__main__':
    a = sys.argv[1:]
    main(a[0], *(int(x, 16) for x in a[1:3])) if len(a) in (1, 3) else sys.exit(__doc__)
