#!/usr/bin/env python3
"""consistency.py REPORT_DIR... - one number per fact in a gemmprof report.

A fact is a value (GFLOP/s, time, % of cuBLAS, ...) of one series at one
shape: (kernel, precision, config, shape); a traced kernel's shape is NA.  It may be shown in several
tables (tables/*.md) and chart data files (chart-data/*.csv); everywhere it
must read the same, to the precision each place prints.

Tables: a Markdown table whose caption says "at size S" holds one shape;
one whose integer headings are sizes has the shape per column, the axis
named at the end of its caption ("N (M = N = K)", "K (M = 8192, N = 8192)").
A row without a config (or precision) column names no series: its value
must then agree with every config of that kernel at that shape.

Chart data files say what they hold in '#' lines: "# axis: LABEL" or
"# shape: S", "# columns: A,B,..." (units: GFLOP/s, TFLOP/s, PFLOP/s) and
"# series: KERNEL|PRECISION|CONFIG" before the rows of each series.

A config "policy:tile" or "policy:file:tile" (a size-dispatched kernel's,
its tile chosen per size) belongs to series "policy[:file]:*" (a curve
over sizes); every other config is its own series.

Prints each contradiction, then a count; exit 1 on a contradiction, on no
chart data, or when no fact appears twice (nothing was compared)."""
import glob
import math
import os
import re
import sys

METRIC = {  # heading -> (fact, multiplier)
    "GFLOP/s": ("GFLOP/s", 1), "TFLOP/s": ("GFLOP/s", 1e3), "PFLOP/s": ("GFLOP/s", 1e6),
    "best GFLOP/s": ("GFLOP/s", 1),
    "time ms": ("time ms", 1), "% cuBLAS": ("% cuBLAS", 1), "x naive": ("x naive", 1),
    "FLOP/B DRAM": ("FLOP/B DRAM", 1), "ai_dram": ("FLOP/B DRAM", 1),
    "DRAM MB": ("DRAM MB", 1), "dram_mb": ("DRAM MB", 1),
    "spill B": ("spill B", 1), "spill_bytes": ("spill B", 1),
    "occ. theor. %": ("occ. theor. %", 1), "occ_theoretical": ("occ. theor. %", 1),
    "occ. achieved %": ("occ. achieved %", 1), "occ_achieved": ("occ. achieved %", 1),
}


def series_config(c):
    """The series a config belongs to (see the module text)."""
    if c in (None, "*"):
        return c
    if c.endswith(":*"):
        return c
    return c[:c.rindex(":")] + ":*" if ":" in c else c


def parse_shape(s):
    s = s.strip()
    if s == "NA" or s.startswith("NA "):   # traced kernels: no GEMM shape
        return ("NA",) * 3
    if re.fullmatch(r"\d+", s):
        return (int(s),) * 3
    m = re.fullmatch(r"(\d+)x(\d+)x(\d+)", s)
    return tuple(int(v) for v in m.groups()) if m else None


def axis_shape(label, x):
    """Shape of point x of an axis labelled "N (M = N = K)" or
    "K (M = 8192, N = 8192)"."""
    m = re.search(r"\b([MNK]) \(([^)]*)\)\s*$", label)
    if not m:
        return None
    if m.group(2).replace(" ", "") == "M=N=K":
        return (x,) * 3
    dims = {"M": None, "N": None, "K": None, m.group(1): x}
    for name, v in re.findall(r"([MNK]) = (\d+)", m.group(2)):
        dims[name] = int(v)
    return None if None in dims.values() else (dims["M"], dims["N"], dims["K"])


def number(cell):
    try:
        v = float(cell)
    except ValueError:
        return None
    if not math.isfinite(v):
        return None
    dec = len(cell.split(".")[1]) if "." in cell and "e" not in cell.lower() else 0
    return v, dec


class Facts:
    def __init__(self):
        self.seen = {}   # (kernel, prec, series, shape, metric) -> [(value, dec, where)]
        self.places = set()
        self.best = []   # (kernel, prec, shape, (value, dec, where)): "best" claims

    def add(self, kernel, prec, config, shape, metric, cell, mult, where):
        n = number(cell)
        if n is None or shape is None:
            return
        v, dec = n
        if mult != 1:            # scaled chart values: about 6 significant digits
            v *= mult
            dec = max(0, 5 - int(math.floor(math.log10(abs(v))))) if v else 6
        key = (kernel, prec or "*", series_config(config) or "*", shape, metric)
        self.seen.setdefault(key, []).append((v, dec, where))
        self.places.add(where.split(" ")[0])

    def agree(self, a, b):
        tol = 0.5 * 10 ** -min(a[1], b[1]) + 1e-9 * max(abs(a[0]), abs(b[0]))
        return abs(a[0] - b[0]) <= tol * 1.0001

    def candidates(self, key):
        """Entries of the same fact, a '*' matching anything."""
        out = []
        for k, vals in self.seen.items():
            if all(x == y or x == "*" or y == "*" for x, y in zip(k, key)):
                out.extend(vals)
        return out

    def report(self, name):
        """Print each contradiction once; (contradictions, facts shown twice)."""
        lines, pairs, twice = [], set(), 0
        for key, vals in self.seen.items():
            allv = self.candidates(key)
            twice += len({w for _, _, w in allv}) > 1
            for a in vals:
                for b in allv:
                    pair = frozenset([(fmt(a), a[2]), (fmt(b), b[2])])
                    if a is b or self.agree(a, b) or pair in pairs:
                        continue
                    pairs.add(pair)
                    k, p, c, s, m = key
                    shape = "x".join(map(str, s)) if len(set(s)) > 1 else str(s[0])
                    lines.append(f"{name}: {k} {p} [{c}] at {shape}, {m}: {fmt(a)} in "
                                 f"{a[2]} but {fmt(b)} in {b[2]}")
        for kernel, prec, shape, claim in self.best:
            for (k, p, c, s, m), vals in self.seen.items():
                for v in vals:
                    if (k, p, s, m) == (kernel, prec, shape, "GFLOP/s") and \
                            v[0] > claim[0] and not self.agree(v, claim):
                        lines.append(f"{name}: {k} {p} at {shape[0]}: best config claimed "
                                     f"at {fmt(claim)} in {claim[2]}, but [{c}] has "
                                     f"{fmt(v)} in {v[2]}")
        for l in sorted(set(lines)):
            print("CONTRADICTION " + l)
        return len(set(lines)), twice


def fmt(e):
    return f"{e[0]:.{e[1]}f}"


def md_tables(path):
    """(caption, headings, rows) of each Markdown table in the file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, caption, i = [], "", 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("|") and i + 1 < len(lines) and re.match(r"^\|[-:| ]+\|$", lines[i + 1]):
            head = cells(l)
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            out.append((caption, head, rows))
            continue
        if l.strip() and not l.startswith("|") and not l.startswith("- "):
            caption = l
        i += 1
    return out


def cells(line):
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def read_table(facts, path, caption, head, rows):
    name = os.path.basename(path)
    col = {h: j for j, h in enumerate(head)}
    if "kernel" not in col:
        return
    m = re.search(r"\bat size (\S+)", caption)
    one = parse_shape(m.group(1).rstrip(",;")) if m else None
    sizes = [(j, int(h)) for j, h in enumerate(head) if re.fullmatch(r"\d+", h)]
    for r in rows:
        kernel = r[col["kernel"]]
        prec = r[col["precision"]] if "precision" in col else None
        config = r[col["config"]] if "config" in col else None
        m = re.fullmatch(r"(.+?)\[(.*)\]", kernel)      # "mixed[default:*]"
        if m:
            kernel, config = m.group(1), config or m.group(2)
        where = f"tables/{name} (row {kernel}{' ' + config if config else ''})"
        if one is not None:
            for h, j in col.items():
                if h in METRIC and h != "best GFLOP/s":
                    facts.add(kernel, prec, config, one, METRIC[h][0], r[j], 1, where)
            if "best config" in col and "best GFLOP/s" in col:
                where = f"tables/{name} (row {kernel}, best config)"
                facts.add(kernel, prec, r[col["best config"]], one, "GFLOP/s",
                          r[col["best GFLOP/s"]], 1, where)
                n = number(r[col["best GFLOP/s"]])
                if n:
                    facts.best.append((kernel.split("[")[0], prec, one, n + (where,)))
        for j, x in sizes:
            facts.add(kernel, prec, config, axis_shape(caption, x), "GFLOP/s", r[j], 1, where)


def read_chart(facts, path):
    name = "chart-data/" + os.path.basename(path)
    axis = shape = series = None
    columns = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("# axis: "):
            axis = line[8:]
        elif line.startswith("# shape: "):
            shape = parse_shape(line[9:])
        elif line.startswith("# columns: "):
            columns = line[11:].split(",")
        elif line.startswith("# series: "):
            series = line[10:].split("|")
        elif line.startswith("#"):
            series = None        # any other comment: rows of no series follow
        elif not line.strip() or series is None or not columns:
            continue
        else:
            v = line.split(",")
            kernel, prec, config = series
            at = shape
            if axis is not None:
                at = axis_shape(axis, int(float(v[columns.index("x")])))
            for j, c in enumerate(columns):
                if c in METRIC and j < len(v):
                    facts.add(kernel, prec, config, at, METRIC[c][0], v[j], METRIC[c][1],
                              f"{name} (series {kernel} {config})")


def check(report):
    facts = Facts()
    name = os.path.basename(os.path.normpath(report))
    tables = sorted(glob.glob(os.path.join(report, "tables", "*.md")))
    charts = sorted(glob.glob(os.path.join(report, "chart-data", "*.csv")))
    for t in tables:
        for caption, head, rows in md_tables(t):
            read_table(facts, t, caption, head, rows)
    for c in charts:
        read_chart(facts, c)
    bad, twice = facts.report(name)
    print(f"{name}: {len(facts.seen)} facts from {len(tables)} tables and {len(charts)} "
          f"chart data files; {twice} shown in two or more places; {bad} contradictions")
    if not charts:
        print(f"{name}: no chart data files in {report}/chart-data")
        return 1
    if not tables or twice == 0:
        print(f"{name}: nothing compared")
        return 1
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\n\n")[0])
        return 2
    return max(check(r) for r in argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
