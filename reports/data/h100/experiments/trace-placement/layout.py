#!/usr/bin/env python3
"""layout.py - where each run's memory lay at the end (scripts/trace-mlp.py --layout):
the device's free memory and the caching allocator's segments, as offsets from the
lowest one, in address order (MB each).

  layout.py RUN.json...     (one line a file)"""
import json
import os
import sys

for f in sys.argv[1:]:
    j = json.load(open(f))
    segs = j['segments']
    base = segs[0][0] if segs else 0
    print('%-10s free %8.1f MB  %2d segments: %s' % (
        os.path.basename(f), j['free'] / 2**20, len(segs),
        ' '.join('+%d:%d' % ((a - base) >> 20, n >> 20) for a, n in segs)))
