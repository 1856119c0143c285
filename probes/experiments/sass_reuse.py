#!/usr/bin/env python3
"""sass_reuse.py - count, in a kernel's main loop, the DFMAs that read all
three 64-bit operands from the register file (none from the operand reuse
cache), from `cuobjdump -sass` output of an sm_90 object.

Why: on the H200 a DFMA with three register-file operands issues at 2/3 of
the FP64 pipe rate (probes/experiments/dfma_issue.cu, chains3), so this
count bounds a DFMA kernel.  The control bits of each 128-bit instruction
sit in bits 105-125 (stall 4 bits, yield, write/read barrier, wait mask,
reuse 4 bits); an operand is taken as cached when the previous DFMA marked
the same register in the same slot .reuse (the model that matched the
measurements within 1 point; treating any instruction in between as
clearing the cache matched the LDS variants better, and is printed too).

    cuobjdump -sass obj.o > k.sass
    sass_reuse.py k.sass FUNCTION-SUBSTRING
The loop is taken from the first BAR.SYNC to the next backward branch.
"""
import re
import sys


def instructions(lines, func):
    inside = False
    for i, line in enumerate(lines):
        if 'Function :' in line:
            inside = func in line
            continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/', line)
        if not (inside and m):
            continue
        hi = re.search(r'/\* (0x[0-9a-f]+) \*/', lines[i + 1])
        ctrl = int(hi.group(1), 16) >> 41
        yield int(m.group(1), 16), m.group(2), ctrl


def main_loop(insts):
    start = next(k for k, (_, t, _) in enumerate(insts) if 'BAR.SYNC' in t)
    for k in range(start, len(insts)):
        addr, text, _ = insts[k]
        b = re.search(r'BRA (0x[0-9a-f]+)', text)
        if b and int(b.group(1), 16) <= insts[start][0]:
            return insts[start:k + 1]
    sys.exit('no backward branch after the first BAR.SYNC')


def operands(text):
    body = re.sub(r'^@!?\w+\s+', '', text)
    op = body.split()[0]
    srcs = [s.strip() for s in body.split(',')[1:]]
    return op, srcs


def count(loop, dfma_only_cache):
    prev = None
    hist = {}
    for _, text, ctrl in loop:
        op, srcs = operands(text)
        if op != 'DFMA':
            if not dfma_only_cache:
                prev = None
            continue
        fresh = 0
        for k, s in enumerate(srcs[:3]):
            reg = s.replace('.reuse', '')
            if reg.startswith(('UR', 'RZ', 'c[')):
                continue
            if prev and prev[k] == (reg, True):
                continue
            fresh += 1
        hist[fresh] = hist.get(fresh, 0) + 1
        prev = [(s.replace('.reuse', ''), '.reuse' in s) for s in srcs[:3]]
    return hist


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lines = open(sys.argv[1]).read().split('\n')
    insts = list(instructions(lines, sys.argv[2]))
    if not insts:
        sys.exit(f'{sys.argv[2]}: no such function in {sys.argv[1]}')
    loop = main_loop(insts)
    n = sum(1 for _, t, _ in loop if operands(t)[0] == 'DFMA')
    yields = sum(1 for _, _, c in loop if not (c >> 4) & 1)
    print(f'{sys.argv[2]}: loop {len(loop)} instructions, {n} DFMA, {yields} yield hints')
    for name, only in (('cache kept across other instructions', True),
                       ('cache cleared by other instructions', False)):
        h = count(loop, only)
        three = h.get(3, 0)
        cycles = sum(max(2, f) * c for f, c in h.items())
        print(f'  {name}: {three} of {n} DFMA read 3 register-file operands;'
              f' bound {200.0 * n / cycles:.1f}% of the FP64 pipe')


if __name__ == '__main__':
    main()
