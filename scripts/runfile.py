"""runfile.py - what the Python helpers (mixed-vs-best.py, rounds-summary.py,
trace-compare.py) need of a gemmprof run file: the CSV rows under its '#'
metadata lines (all, or those that passed verification), and a row's shape."""
import csv


def rows(path):
    """Every row; quoted fields (traced kernels' demangled names hold commas)
    come back whole.  '#' lines are metadata, wherever they are."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith('#')]
    yield from csv.DictReader(lines)


def verified_rows(path):
    for r in rows(path):
        if r['verified'] == '1':
            yield r


def shape(r):
    return (int(r['m']), int(r['n']), int(r['k']))
