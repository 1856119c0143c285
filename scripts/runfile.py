"""runfile.py - what the Python helpers (mixed-vs-best.py, rounds-summary.py)
need of a gemmprof run file: the CSV rows under its '#' metadata lines that
passed verification, and a row's shape."""
import csv


def verified_rows(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith('#')]
    for r in csv.DictReader(lines):
        if r['verified'] == '1':
            yield r


def shape(r):
    return (int(r['m']), int(r['n']), int(r['k']))
